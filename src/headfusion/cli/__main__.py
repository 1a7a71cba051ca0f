"""`python -m headfusion.cli`."""

import sys

from headfusion.cli.run import main

sys.exit(main())
