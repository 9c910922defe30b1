//! `cabra engines`: the engine configurations and their keys.

/// Arguments of `cabra engines`.
#[derive(clap::Args, Debug)]
pub struct EnginesArgs {
    /// Also print every key's value in this configuration, e.g. "baseline,c=0.5".
    #[arg(value_parser = super::options::parse_engine, value_name = "CONFIG")]
    pub config: Option<cabra::engine::EngineConfig>,
}

/// Prints the help of the configuration keys (from the one table of keys).
pub fn run(args: &EnginesArgs) -> anyhow::Result<()> {
    let mut text = cabra::engine::EngineConfig::help();
    if let Some(c) = &args.config {
        text.push_str(&format!("\n{}:\n", c.name));
        for k in cabra::engine::KEYS {
            text.push_str(&format!("  {}={}\n", k.name, k.get(c)));
        }
    }
    super::style::print(&text)
}
