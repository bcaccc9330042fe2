import os

print("pid", os.getpid(), flush=True)
n = 1
print("after", n)
