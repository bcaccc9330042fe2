import os, sys, time

print("pid", os.getpid(), flush=True)
n = 1
print("after", n, flush=True)
while sys.argv[1:] == ["wait"]:
    time.sleep(0.1)
