# SPDX-License-Identifier: BSD-2-Clause-Patent
"""python -m vmafvk.batch"""

from .cli import main_exit

main_exit()
