"""Answers every input, then does not exit when its input closes."""
import time

from common import accept, serve

serve(lambda text: [accept(text)])
time.sleep(600)
