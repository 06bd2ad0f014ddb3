"""atheris target for the ``mat`` reader: ``python tests/fuzz/atheris_mat.py [libFuzzer options] [CORPUS_DIR]``.

See docs/fuzzing.md; :func:`fuzz.libfuzzer.main` does the work.
"""

import sys
from pathlib import Path

if __name__ == "__main__":
    _ROOT = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(_ROOT), str(_ROOT / "tests")]
    from fuzz.libfuzzer import main

    main("mat")
