// Two threads take the same two std::mutexes in opposite orders and hang,
// each holding the one the other waits for; main waits for both.
#include <atomic>
#include <iostream>
#include <mutex>
#include <thread>

static std::mutex savings, checking;
static std::atomic<int> holding{0};

static void transfer(std::mutex &first, std::mutex &second) {
	std::lock_guard<std::mutex> held(first);
	holding++;
	while (holding < 2) // both threads hold their first mutex now
		std::this_thread::yield();
	std::lock_guard<std::mutex> other(second);
}

int main() {
	std::thread to_checking(transfer, std::ref(savings), std::ref(checking));
	std::thread to_savings(transfer, std::ref(checking), std::ref(savings));
	std::cout << "transferring" << std::endl;
	to_checking.join();
	to_savings.join();
}
