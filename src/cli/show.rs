//! `cabra show`: print the final position of a game file.

use std::path::PathBuf;

use super::check::GameJson;
use super::options::RulesOptions;
use super::render::render;
use super::style;

/// Arguments of `cabra show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// A `.caminos` game record.
    pub file: PathBuf,
    /// Print one JSON object for scripts: how the game stands, the
    /// moves in notation (`record`) and the owner and height of every column.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: RulesOptions,
    /// Also write a picture (the 3D view and the top view) to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

#[derive(serde::Serialize)]
struct ShowJson {
    #[serde(flatten)]
    game: GameJson,
    /// The moves in notation, in playing order.
    record: Vec<String>,
    /// Row by row (y = 0 first), each column as `owner height`: `"1 2"`,
    /// `"2 1"`, or `"- 0"` when empty.
    columns: Vec<Vec<String>>,
}

/// Prints the position at the end of the file.
pub fn run(args: &ShowArgs) -> anyhow::Result<()> {
    let pos = args.rules.load(Some(&args.file))?.position;
    if let Some(out) = &args.svg {
        let mut caption = vec![super::render::status_line(&pos)];
        if let Some(m) = pos.moves().last() {
            caption.push(format!("last move: {m} (move {})", pos.plies()));
        }
        let svg = super::svg::board::picture(&pos, &caption);
        super::files::save_picture(out, &args.file, &svg)?;
        // On standard error, so that the text or JSON on standard output
        // stays as it is.
        eprintln!("wrote {} (the board)", out.display());
    }
    if args.json {
        let columns = (0..8u8)
            .map(|y| {
                (0..8u8)
                    .map(|x| match pos.top(x, y).ok().flatten() {
                        Some((p, z)) => format!("{} {}", p.number(), z + 1),
                        None => "- 0".to_string(),
                    })
                    .collect()
            })
            .collect();
        let j = ShowJson {
            game: GameJson::of(&pos),
            record: pos.moves().iter().map(|m| m.to_string()).collect(),
            columns,
        };
        return style::print(&format!("{}\n", serde_json::to_string(&j)?));
    }
    let view = super::render::View {
        colours: style::colours(),
        width: style::terminal_width(),
        ..super::render::View::PLAIN
    };
    style::print(&render(&pos, &view))
}
