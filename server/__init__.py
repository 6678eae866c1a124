"""notillm-local: offline Korean notification-command to rule service."""

__version__ = "0.1.0"
