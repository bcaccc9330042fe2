/* A code generator frees an operand's register while the operand is
   still live, so the next operand gets the same register (berry's bug: a
   register freed while still live). */
#include <stdio.h>
#include <stdlib.h>

static int used[4];

static int alloc_reg(void) {
	for (int r = 0; r < 4; r++) {
		if (!used[r]) {
			used[r] = 1;
			return r;
		}
	}
	return -1;
}

static void free_reg(int r) { used[r] = 0; }

static int compile_operand(int value) {
	int r = alloc_reg();
	free_reg(r);
	return r + 0 * value;
}

int main(void) {
	int a = compile_operand(1);
	int b = compile_operand(2);
	if (a == b) {
		fprintf(stderr, "operands share register %d\n", a);
		abort();
	}
	return 0;
}
