import sys

from tests.conformance.mutants import main

sys.exit(main(sys.argv[1:]))
