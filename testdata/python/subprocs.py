"""Starts child processes three ways, chosen by the first argument."""
import multiprocessing
import os
import subprocess
import sys


def square(n):
    return n * n


def run_child():
    done = subprocess.run([sys.executable, "-c", "print(42)"], capture_output=True, text=True)
    return done.stdout.strip()


def fork_child():
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def pool_map():
    with multiprocessing.Pool(2) as pool:
        return pool.map(square, [1, 2, 3])


def main():
    way = {"run": run_child, "fork": fork_child, "pool": pool_map, "live": live_child}[sys.argv[1]]
    got = way()
    print("children done", got)


def live_child():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    return child.pid


if __name__ == "__main__":
    main()
