"""Two threads take the same two locks in opposite orders and hang, each
holding the lock the other waits for; the main thread stays awake, polling
for their end (debugpy pauses only threads that run Python code), or with
the argument "join" waits in join(), so that every thread blocks in C."""
import sys
import threading
import time

savings_lock = threading.Lock()
checking_lock = threading.Lock()
both_hold = threading.Barrier(2)


def transfer(first, second):
    with first:
        both_hold.wait()  # both threads hold their first lock now
        with second:
            pass


def main():
    workers = [
        threading.Thread(target=transfer, args=(savings_lock, checking_lock), name="to-checking"),
        threading.Thread(target=transfer, args=(checking_lock, savings_lock), name="to-savings"),
    ]
    for w in workers:
        w.start()
    print("transferring", flush=True)
    if sys.argv[1:] == ["join"]:
        for w in workers:  # every thread blocked in C: debugpy cannot pause
            w.join()
    while any(w.is_alive() for w in workers):
        time.sleep(0.05)


if __name__ == "__main__":
    main()
