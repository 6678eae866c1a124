"""Native inference runtimes, made quiet on the network before any of them starts.

onnxruntime's telemetry resolves and contacts `mobile.events.data.microsoft.com` from native
code (issue 16: six DNS lookups in a 60-request run, one at shutdown), which a Python-level
socket guard cannot see. "Offline" must mean no packet leaves the device, so telemetry is
switched off twice: in the environment (`ORT_DISABLE_TELEMETRY=1`, read by the native library
when it loads; the CLI sets it before anything imports onnxruntime) and through onnxruntime's
own API before the first session is created (for processes that imported it earlier, such as
tests or an embedding application).
"""

from __future__ import annotations

import logging
import os

logger = logging.getLogger(__name__)

TELEMETRY_ENV = {"ORT_DISABLE_TELEMETRY": "1"}


def quiet_environment() -> None:
    """Set the variables native runtimes read when they load (cheap: imports nothing)."""
    for key, value in TELEMETRY_ENV.items():
        os.environ[key] = value


def disable_telemetry() -> None:
    """Switch onnxruntime's telemetry off; call before the first InferenceSession exists."""
    quiet_environment()
    try:
        import onnxruntime
    except ImportError:  # serving without the encoder: nothing to silence
        return
    onnxruntime.disable_telemetry_events()
    logger.debug("onnxruntime telemetry disabled")
