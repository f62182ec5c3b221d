"""Starts a child process (sleep 600) in its own process group, writes its
own pid and the child's to PIDFILE (argument), then answers every input
until one containing "hang", on which it sleeps."""
import os
import subprocess
import sys
import time

from common import accept, flush, serve

child = subprocess.Popen(["sleep", "600"])
with open(sys.argv[1] + ".partial", "w") as f:
    f.write("%d %d\n" % (os.getpid(), child.pid))
os.rename(sys.argv[1] + ".partial", sys.argv[1])


def handle(text):
    if "hang" in text:
        flush()
        time.sleep(600)
    return [accept(text)]


serve(handle)
