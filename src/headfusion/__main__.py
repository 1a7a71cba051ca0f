"""`python -m headfusion`: the `headfusion` command."""

import sys

from headfusion.cli.run import main

sys.exit(main())
