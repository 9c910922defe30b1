#!/usr/bin/env bash
# Offline checks of flake.nix and flake.lock, for machines that cannot fetch
# the flake's inputs (so `nix flake check` / `nix build` cannot run):
#
#   1. flake.nix parses (nix-instantiate --parse), and its outputs evaluate
#      against a stand-in nixpkgs (scripts/flake-eval-mock.nix): all four
#      systems, version and pname from Cargo.toml, the package built in
#      release mode without its tests (so `nix build`/`nix run` run none),
#      checks.default with them on in release mode (with tmux and python3),
#      app runs bin/cabra, dev shell tools, formatter.
#      Skipped, with a message, if nix-instantiate is not installed
#      (Debian: apt-get install nix-bin).
#   2. flake.lock is valid JSON, lock version 7, and its root inputs are
#      exactly flake.nix's inputs, each locked to a github rev with a narHash,
#      and each `original` matching the url in flake.nix.
#   3. flake.nix takes the package version from Cargo.toml rather than
#      hard-coding it.
#
# Needs python3 (3.11+ for tomllib). Exits non-zero if any check fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

fail=0
ok() { printf 'ok    %s\n' "$*"; }
bad() { printf 'FAIL  %s\n' "$*"; fail=1; }
skip() { printf 'skip  %s\n' "$*"; }

for f in flake.nix flake.lock Cargo.toml Cargo.lock; do
    [[ -f $f ]] || { bad "$f missing"; exit 1; }
done

cargo_version="$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml","rb"))["package"]["version"])')"
cargo_name="$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml","rb"))["package"]["name"])')"

# --- 1. parse and mock evaluation -------------------------------------------
inputs_json=""
if command -v nix-instantiate >/dev/null 2>&1; then
    if nix-instantiate --parse flake.nix >/dev/null; then
        ok "flake.nix parses ($(nix-instantiate --version))"
    else
        bad "flake.nix does not parse"
    fi
    if eval_json="$(nix-instantiate --eval --strict --json scripts/flake-eval-mock.nix 2>&1)"; then
        inputs_json="$(python3 -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1])["inputs"]))' "$eval_json")"
        if msg="$(python3 - "$eval_json" "$cargo_name" "$cargo_version" <<'PY'
import json, sys
ev, name, version = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
want_systems = {"x86_64-linux", "aarch64-linux", "x86_64-darwin", "aarch64-darwin"}
errs = []
if set(ev["systems"]) != want_systems:
    errs.append(f"packages systems {sorted(ev['systems'])} != {sorted(want_systems)}")
for o in ev["outputs"]:
    s = o["system"]
    if o["pname"] != name: errs.append(f"{s}: pname {o['pname']!r} != Cargo.toml {name!r}")
    if o["version"] != version: errs.append(f"{s}: version {o['version']!r} != Cargo.toml {version!r}")
    if o["lockFile"] != "Cargo.lock": errs.append(f"{s}: cargoLock.lockFile is {o['lockFile']!r}")
    if o["packageDoCheck"] is not False: errs.append(f"{s}: packages.default runs the tests (doCheck belongs in checks, so that nix build/run do not run them)")
    if o["packageBuildType"] != "release": errs.append(f"{s}: packages.default buildType {o['packageBuildType']!r} != 'release'")
    if (o["checkPname"], o["checkVersion"]) != (name, version): errs.append(f"{s}: checks.default is {o['checkPname']} {o['checkVersion']}, not {name} {version}")
    if o["doCheck"] is not True: errs.append(f"{s}: checks.default: doCheck is not true")
    if o["checkType"] != "release": errs.append(f"{s}: checks.default: checkType {o['checkType']!r} != 'release'")
    if "tmux" not in o["checkInputs"]: errs.append(f"{s}: checks.default: no tmux in nativeCheckInputs (the terminal tests need it)")
    if "python3" not in o["checkInputs"]: errs.append(f"{s}: checks.default: no python3 in nativeCheckInputs (the docs' replay of blunders.py needs it)")
    if o["appType"] != "app" or not o["appProgram"].endswith("/bin/cabra"):
        errs.append(f"{s}: apps.default does not run bin/cabra ({o['appProgram']})")
    missing = {"cargo", "rustc", "clippy", "rustfmt", "rust-analyzer"} - set(o["shellPackages"])
    if missing: errs.append(f"{s}: devShell lacks {sorted(missing)}")
    if o["formatter"] not in ("nixfmt", "nixpkgs-fmt"): errs.append(f"{s}: formatter {o['formatter']!r}")
print("; ".join(errs))
sys.exit(1 if errs else 0)
PY
)"; then
            ok "outputs evaluate against a stand-in nixpkgs: 4 systems, $cargo_name $cargo_version, package without tests, checks with them (release), app bin/cabra, dev shell, formatter"
        else
            bad "mock evaluation: $msg"
        fi
    else
        bad "mock evaluation failed: $eval_json"
    fi
else
    skip "nix-instantiate not installed: flake.nix parse and mock evaluation not run (Debian: apt-get install nix-bin)"
fi

# --- 2. flake.lock -----------------------------------------------------------
if msg="$(python3 - "$inputs_json" <<'PY'
import json, re, sys, base64

errs = []
try:
    lock = json.load(open("flake.lock"))
except Exception as e:  # noqa: BLE001
    print(f"flake.lock is not valid JSON: {e}")
    sys.exit(1)

if sys.argv[1]:
    inputs = {k: v.get("url") for k, v in json.loads(sys.argv[1]).items()}
else:
    # No nix: read `NAME.url = "...";` lines from the inputs block.
    src = open("flake.nix").read()
    block = re.search(r"inputs\s*=\s*\{(.*?)\};", src, re.S)
    inputs = dict(re.findall(r'([A-Za-z0-9_-]+)\.url\s*=\s*"([^"]+)"', block.group(1) if block else ""))

if lock.get("version") != 7:
    errs.append(f"lock version {lock.get('version')!r} != 7")
nodes = lock.get("nodes", {})
root = nodes.get(lock.get("root", ""), {})
root_inputs = root.get("inputs", {})
if set(root_inputs) != set(inputs):
    errs.append(f"lock root inputs {sorted(root_inputs)} != flake.nix inputs {sorted(inputs)}")

for name, url in inputs.items():
    node = nodes.get(root_inputs.get(name, ""), None)
    if node is None:
        errs.append(f"no lock node for input {name}")
        continue
    m = re.fullmatch(r"github:([^/]+)/([^/]+)(?:/([^?]+))?", url or "")
    if not m:
        errs.append(f"input {name}: only github: urls are checked, got {url!r}")
        continue
    want = {"type": "github", "owner": m.group(1), "repo": m.group(2)}
    if m.group(3):
        want["ref"] = m.group(3)
    if node.get("original") != want:
        errs.append(f"input {name}: original {node.get('original')} != {want}")
    locked = node.get("locked", {})
    for k in ("type", "owner", "repo"):
        if locked.get(k) != want[k]:
            errs.append(f"input {name}: locked.{k} {locked.get(k)!r} != {want[k]!r}")
    if not re.fullmatch(r"[0-9a-f]{40}", locked.get("rev", "")):
        errs.append(f"input {name}: locked.rev is not a 40-hex commit")
    if not isinstance(locked.get("lastModified"), int):
        errs.append(f"input {name}: locked.lastModified is not an integer")
    nh = locked.get("narHash", "")
    try:
        okh = nh.startswith("sha256-") and len(base64.b64decode(nh[7:], validate=True)) == 32
    except Exception:  # noqa: BLE001
        okh = False
    if not okh:
        errs.append(f"input {name}: locked.narHash {nh!r} is not a sha256 SRI hash")

extra = set(nodes) - {lock.get("root")} - set(root_inputs.values())
if extra:
    errs.append(f"lock has nodes no input uses: {sorted(extra)}")

if errs:
    print("; ".join(errs))
    sys.exit(1)
print(", ".join(f"{n} -> {nodes[root_inputs[n]]['locked']['rev'][:12]}" for n in sorted(inputs)))
PY
)"; then
    ok "flake.lock: valid JSON, version 7, inputs match flake.nix ($msg)"
else
    bad "flake.lock: $msg"
fi

# --- 3. version follows Cargo.toml -------------------------------------------
if grep -Eq 'builtins\.fromTOML[[:space:]]*\(builtins\.readFile[[:space:]]+\./Cargo\.toml\)' flake.nix \
    && grep -q '\.package\.version' flake.nix \
    && ! grep -Eq 'version[[:space:]]*=[[:space:]]*"' flake.nix; then
    ok "flake.nix reads the version from Cargo.toml (now $cargo_version), none hard-coded"
else
    bad "flake.nix must take version from (builtins.fromTOML (builtins.readFile ./Cargo.toml)).package.version and hard-code none"
fi

if [[ $fail -ne 0 ]]; then
    echo "check-flake: FAILED"
    exit 1
fi
echo "check-flake: all checks passed"
