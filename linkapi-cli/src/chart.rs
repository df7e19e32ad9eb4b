//! Charts drawn with block characters: bars for tables of figures, and a sparkline for a
//! window of days at a glance.

/// Bar cells from empty to full, in eighths.
const EIGHTHS: [char; 8] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉', '█'];
/// Sparkline levels, lowest first.
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// A bar of `value` against `max`, `width` cells at most, to an eighth of a cell; any positive
/// value shows at least an eighth.
pub fn bar(value: i64, max: i64, width: usize) -> String {
    if value <= 0 || max <= 0 || width == 0 {
        return String::new();
    }
    let eighths = (value.min(max) as f64 / max as f64 * (width * 8) as f64).round() as usize;
    let eighths = eighths.max(1);
    let mut drawn = "█".repeat(eighths / 8);
    if let Some(part) = (eighths % 8).checked_sub(1) {
        drawn.push(EIGHTHS[part]);
    }
    drawn
}

/// `values` as one line of at most `width` characters, each the level of its value against
/// the largest. More values than `width` are averaged in runs of consecutive ones, counted
/// from the last, so the newest run is whole and only the oldest may be shorter. Zero is the
/// lowest level, any positive value at least the second.
pub fn sparkline(values: &[i64], width: usize) -> String {
    if values.is_empty() || width == 0 {
        return String::new();
    }
    let run = values.len().div_ceil(width);
    let mut means: Vec<f64> = values
        .rchunks(run)
        .map(|run| run.iter().sum::<i64>() as f64 / run.len() as f64)
        .collect();
    means.reverse();
    let max = means.iter().copied().fold(0.0, f64::max);
    means
        .iter()
        .map(|&value| {
            if value <= 0.0 || max <= 0.0 {
                return LEVELS[0];
            }
            let level = (value / max * (LEVELS.len() - 1) as f64).round() as usize;
            LEVELS[level.clamp(1, LEVELS.len() - 1)]
        })
        .collect()
}

/// `n` with thousands separated by commas.
pub fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_in_eighths() {
        assert_eq!(bar(0, 10, 30), "");
        assert_eq!(bar(10, 10, 30).chars().count(), 30);
        assert_eq!(bar(5, 10, 30), "█".repeat(15));
        assert_eq!(bar(1, 1_000, 30), "▏", "a positive value is never blank");
        assert_eq!(bar(3, 16, 2), "▍", "3/16 of 2 cells is 3 eighths");
        assert_eq!(bar(20, 10, 4).chars().count(), 4, "never past the width");
    }

    #[test]
    fn sparklines_fit_the_width_and_show_every_positive_run() {
        assert_eq!(sparkline(&[0, 1, 8, 4], 10), "▁▂█▅");
        assert_eq!(sparkline(&[0, 0], 10), "▁▁");
        assert_eq!(sparkline(&[1, 1000], 10), "▂█", "small is not blank");
        let year: Vec<i64> = (0..365).collect();
        let line = sparkline(&year, 60);
        assert!(line.chars().count() <= 60, "{line}");
        assert!(line.ends_with('█'), "{line}");
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(-4_200), "-4,200");
    }
}
