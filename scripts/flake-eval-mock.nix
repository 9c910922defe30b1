# Evaluates flake.nix's outputs against a stand-in for nixpkgs, so that the
# wiring of the flake (systems, version from Cargo.toml, the package
# without tests and checks with them, app, dev
# shell, formatter) can be checked by a Nix that cannot fetch the real
# nixpkgs input. Used by scripts/check-flake.sh:
#
#   nix-instantiate --eval --strict --json scripts/flake-eval-mock.nix
#
# It builds nothing: buildRustPackage and mkShell just return their arguments.
let
  flake = import ../flake.nix;
  systems = [
    "x86_64-linux"
    "aarch64-linux"
    "x86_64-darwin"
    "aarch64-darwin"
  ];
  lib = {
    genAttrs =
      names: f:
      builtins.listToAttrs (
        map (n: {
          name = n;
          value = f n;
        }) names
      );
    cleanSource = p: p;
    getExe = drv: "${drv.outPath}/bin/${drv.meta.mainProgram}";
    licenses.mit = "mit";
  };
  mkPkgs = system: {
    inherit lib;
    stdenv.hostPlatform.system = system;
    rustPlatform = {
      buildRustPackage = args: args // { outPath = "/mock/${args.pname}-${args.version}"; };
      rustLibSrc = "/mock/rust-lib-src";
    };
    mkShell = args: args // { outPath = "/mock/shell"; };
    cargo = "cargo";
    rustc = "rustc";
    clippy = "clippy";
    rustfmt = "rustfmt";
    rust-analyzer = "rust-analyzer";
    tmux = "tmux";
    python3 = "python3";
    nixfmt = "nixfmt";
    nixpkgs-fmt = "nixpkgs-fmt";
    nixfmt-rfc-style = "nixfmt";
  };
  nixpkgs = {
    inherit lib;
    legacyPackages = lib.genAttrs systems mkPkgs;
  };
  self = flake.outputs { inherit self nixpkgs; };
in
{
  inputs = flake.inputs;
  systems = builtins.attrNames self.packages;
  outputs = map (s: {
    system = s;
    pname = self.packages.${s}.default.pname;
    version = self.packages.${s}.default.version;
    lockFile = baseNameOf (toString self.packages.${s}.default.cargoLock.lockFile);
    # The package builds without its tests; checks.default runs them.
    packageDoCheck = self.packages.${s}.default.doCheck or true;
    packageBuildType = self.packages.${s}.default.buildType or "";
    checkPname = self.checks.${s}.default.pname;
    checkVersion = self.checks.${s}.default.version;
    doCheck = self.checks.${s}.default.doCheck or false;
    checkType = self.checks.${s}.default.checkType or "";
    checkInputs = self.checks.${s}.default.nativeCheckInputs or [ ];
    appType = self.apps.${s}.default.type;
    appProgram = self.apps.${s}.default.program;
    shellPackages = self.devShells.${s}.default.packages;
    formatter = self.formatter.${s};
  }) systems;
}
