"""Answers every input, then exits with STATUS when its input closes
(argument: STATUS)."""
import sys

from common import accept, serve

serve(lambda text: [accept(text)])
sys.stderr.write("exiting with %s at the end\n" % sys.argv[1])
sys.exit(int(sys.argv[1]))
