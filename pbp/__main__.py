import sys

from pbp.cli import main

sys.exit(main())
