# SPDX-License-Identifier: BSD-2-Clause-Patent
"""What stops a batch before scoring, and the exit statuses."""

EXIT_FAILED, EXIT_USAGE, EXIT_SETUP = 1, 2, 3


class BatchError(Exception):
    """A problem that stops the run before scoring (exit status `code`)."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code
