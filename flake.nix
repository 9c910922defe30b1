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
    in
    {
      packages = forAllSystems (pkgs: {
        default = pkgs.rustPlatform.buildRustPackage {
          pname = cargoToml.package.name;
          version = cargoToml.package.version;
          src = pkgs.lib.cleanSource ./.;
          cargoLock.lockFile = ./Cargo.lock;

          # Run the test suite as `cargo test --release` would.
          doCheck = true;
          buildType = "release";
          checkType = "release";
          # The tests drive `cabra play` under tmux and replay the docs'
          # examples, one of which runs a Python script.
          nativeCheckInputs = [
            pkgs.tmux
            pkgs.python3
          ];

          meta = {
            description = cargoToml.package.description;
            license = pkgs.lib.licenses.mit;
            mainProgram = "cabra";
            platforms = systems;
          };
        };
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

      checks = forAllSystems (pkgs: {
        # Building the package runs its tests (doCheck above).
        default = self.packages.${pkgs.stdenv.hostPlatform.system}.default;
      });

      # `nix fmt`. In this nixpkgs, `nixfmt` is the RFC-style formatter
      # (`nixfmt-rfc-style` is a deprecated alias of it).
      formatter = forAllSystems (pkgs: pkgs.nixfmt);
    };
}
