#!/usr/bin/env python3
"""drm/ on virtio-gpu and bochs: first frame, flood pacing, legacy path, GPU hot-unplug/re-plug, clone mode.
The tests live in tests/drm/vm-drm.py (owned with drm/); this scenario runs them. Prints PASS/FAIL lines."""
# timeout: 900
import os
import sys
from pathlib import Path

script = Path(__file__).resolve().parent.parent / "drm" / "vm-drm.py"
os.execv(sys.executable, [sys.executable, str(script), "--clone"])
