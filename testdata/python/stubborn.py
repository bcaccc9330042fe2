"""Ignores SIGTERM, as servers with their own shutdown handling may."""
import signal
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
ticks = 0
while True:
    ticks += 1
    time.sleep(0.01)
