// Two threads take the same two mutexes in opposite orders and hang, each
// holding the one the other waits for; main waits for both.
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t savings = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t checking = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold;

struct order {
	pthread_mutex_t *first, *second;
};

static void *transfer(void *arg) {
	struct order *o = arg;
	pthread_mutex_lock(o->first);
	pthread_barrier_wait(&both_hold); /* both threads hold their first mutex now */
	pthread_mutex_lock(o->second);
	pthread_mutex_unlock(o->second);
	pthread_mutex_unlock(o->first);
	return NULL;
}

int main(void) {
	struct order to_checking = {&savings, &checking}, to_savings = {&checking, &savings};
	pthread_t a, b;
	pthread_barrier_init(&both_hold, NULL, 2);
	pthread_create(&a, NULL, transfer, &to_checking);
	pthread_create(&b, NULL, transfer, &to_savings);
	printf("transferring\n");
	fflush(stdout);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
