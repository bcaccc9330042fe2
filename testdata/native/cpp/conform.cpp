// The conformance table's C++ program (internal/server/conformance_test.go):
// weigh called in a loop, an exception chosen by "raise", a wait for an
// attach chosen by "wait", output and exit code 3.
#include <chrono>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>

int weigh(int item, int factor) {
    int scaled = item * factor;
    return scaled;
}

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    int total = 0;
    for (int i = 0; i < 4; i++) {
        total += weigh(i, 3);
    }
    if (mode == "raise") {
        throw std::runtime_error("bad mode " + mode);
    }
    if (mode == "wait") {
        std::cout << "ready " << getpid() << std::endl;
        while (total >= 0) {
            total += weigh(1, 1);
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    std::cout << "conform total " << total << std::endl;
    return 3;
}
