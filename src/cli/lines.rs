//! Reading lines from a peer (standard input, another program's output)
//! without trusting it: a line longer than a cap is cut and its rest
//! skipped, so that a stream without line ends cannot exhaust memory.

use std::io::{self, BufRead};

/// One line as read, without its line end (`\n` or `\r\n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The bytes, at most the cap.
    pub bytes: Vec<u8>,
    /// Whether the line was longer than the cap (its rest was skipped).
    pub too_long: bool,
}

/// Reads the next line, at most `cap` bytes of it; `None` at the end of
/// the input. A last line without a line end still counts.
pub fn read_line(input: &mut impl BufRead, cap: usize) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        // One byte more than the cap, for a `\r` before the `\n`.
        let room = (cap + 1).saturating_sub(bytes.len());
        if chunk.len() > room {
            too_long = true;
        }
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        input.consume(used);
        if done {
            break;
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    if bytes.len() > cap {
        bytes.truncate(cap);
        too_long = true;
    }
    Ok(Some(Line { bytes, too_long }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], cap: usize) -> Vec<Line> {
        // A tiny buffer makes lines span several reads.
        let mut r = io::BufReader::with_capacity(3, input);
        std::iter::from_fn(|| read_line(&mut r, cap).unwrap()).collect()
    }

    #[test]
    fn lines_are_cut_at_the_cap_and_line_ends_dropped() {
        let lines = all(b"abc\r\n\nlonger line\nsix..6\r\nlast", 6);
        let text: Vec<(&[u8], bool)> = lines
            .iter()
            .map(|l| (l.bytes.as_slice(), l.too_long))
            .collect();
        assert_eq!(
            text,
            vec![
                (&b"abc"[..], false),
                (&b""[..], false),
                (&b"longer"[..], true),
                (&b"six..6"[..], false),
                (&b"last"[..], false)
            ]
        );
        assert!(all(b"", 6).is_empty());
        // A huge line without an end costs only the cap.
        let huge = vec![b'x'; 100_000];
        let lines = all(&huge, 10);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].bytes.len(), 10);
        assert!(lines[0].too_long);
    }
}
