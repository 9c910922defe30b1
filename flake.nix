{
  description = "Cabra: an engine for the 3D connection game Caminos";

  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixpkgs-unstable";
  };

  outputs =
    { self, nixpkgs }:
    let
      systems = [
        "x86_64-linux"
        "aarch64-linux"
        "x86_64-darwin"
        "aarch64-darwin"
      ];
      forAllSystems = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
      cargoToml = builtins.fromTOML (builtins.readFile ./Cargo.toml);
      # The package, built as `cargo build --release` does. `nix build` and
      # `nix run` build it without running the tests; checks.default below
      # is the same package with them.
      cabra =
        pkgs: extra:
        pkgs.rustPlatform.buildRustPackage (
          {
            pname = cargoToml.package.name;
            version = cargoToml.package.version;
            src = pkgs.lib.cleanSource ./.;
            cargoLock.lockFile = ./Cargo.lock;
            buildType = "release";
            doCheck = false;

            meta = {
              description = cargoToml.package.description;
              license = pkgs.lib.licenses.mit;
              mainProgram = "cabra";
              platforms = systems;
            };
          }
          // extra
        );
    in
    {
      packages = forAllSystems (pkgs: {
        default = cabra pkgs { };
      });

      apps = forAllSystems (pkgs: {
        default = {
          type = "app";
          program = pkgs.lib.getExe self.packages.${pkgs.stdenv.hostPlatform.system}.default;
          meta.description = "Run the cabra engine";
        };
      });

      devShells = forAllSystems (pkgs: {
        default = pkgs.mkShell {
          packages = [
            pkgs.cargo
            pkgs.rustc
            pkgs.clippy
            pkgs.rustfmt
            pkgs.rust-analyzer
          ];
          # Lets rust-analyzer find the standard library's sources.
          RUST_SRC_PATH = "${pkgs.rustPlatform.rustLibSrc}";
        };
      });

      # `nix flake check`: the package built again, with the test suite run
      # as `cargo test --release` would.
      checks = forAllSystems (pkgs: {
        default = cabra pkgs {
          doCheck = true;
          checkType = "release";
          # The tests drive `cabra play` under tmux and replay the docs'
          # examples, one of which runs a Python script.
          nativeCheckInputs = [
            pkgs.tmux
            pkgs.python3
          ];
        };
      });

      # `nix fmt`. In this nixpkgs, `nixfmt` is the RFC-style formatter
      # (`nixfmt-rfc-style` is a deprecated alias of it).
      formatter = forAllSystems (pkgs: pkgs.nixfmt);
    };
}
