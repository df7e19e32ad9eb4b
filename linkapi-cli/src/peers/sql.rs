//! The rows of a table in a MySQL or MariaDB dump (`mysqldump`, `mariadb-dump`): its
//! `INSERT INTO `table` [(columns)] VALUES (...),(...);` statements, with MySQL's string
//! escapes (`\'`, `\"`, `\\`, `\n`, `\r`, `\t`, `\0`, `\Z`, and `''`).

use anyhow::{Result, bail};

/// One row: the line it starts on, and its values (`None` for NULL), in the columns' order.
pub(super) struct Row {
    pub(super) line: usize,
    pub(super) values: Vec<Option<String>>,
}

/// The rows of `table` in `dump`, and the columns the statements name (empty when they name
/// none: the table's own order).
pub(super) fn rows(dump: &str, table: &str) -> Result<(Vec<String>, Vec<Row>)> {
    let head = format!("INSERT INTO `{table}`");
    let mut columns = Vec::new();
    let mut rows = Vec::new();
    let mut rest = dump;
    let mut found = false;
    while let Some(at) = rest.find(&head) {
        found = true;
        let mut s = Scanner {
            text: &rest[at + head.len()..],
            line: 1 + dump[..dump.len() - rest.len() + at].matches('\n').count(),
        };
        s.skip_space();
        if s.eat('(') {
            columns = s.names()?;
        }
        s.skip_space();
        if !s.eat_word("VALUES") {
            bail!("line {}: expected VALUES after {head}", s.line);
        }
        loop {
            s.skip_space();
            let line = s.line;
            if !s.eat('(') {
                bail!("line {line}: expected ( to start a row");
            }
            rows.push(Row {
                line,
                values: s.values()?,
            });
            s.skip_space();
            if s.eat(',') {
                continue;
            }
            if s.eat(';') {
                break;
            }
            bail!("line {}: expected , or ; after a row", s.line);
        }
        rest = s.text;
    }
    if !found {
        bail!("no {head} statement: is this a dump of the {table} table?");
    }
    Ok((columns, rows))
}

struct Scanner<'t> {
    text: &'t str,
    line: usize,
}

impl Scanner<'_> {
    fn bump(&mut self) -> Option<char> {
        let c = self.text.chars().next()?;
        self.text = &self.text[c.len_utf8()..];
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.text.starts_with(char::is_whitespace) {
            self.bump();
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.text.starts_with(c) {
            self.bump();
            return true;
        }
        false
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let matches = self
            .text
            .get(..word.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(word));
        if matches {
            self.text = &self.text[word.len()..];
        }
        matches
    }

    /// `` `a`, `b`) ``: the column names of a statement.
    fn names(&mut self) -> Result<Vec<String>> {
        let mut names = Vec::new();
        loop {
            self.skip_space();
            if !self.eat('`') {
                bail!("line {}: expected a `column` name", self.line);
            }
            let mut name = String::new();
            loop {
                match self.bump() {
                    Some('`') => break,
                    Some(c) => name.push(c),
                    None => bail!("a column name does not end"),
                }
            }
            names.push(name);
            self.skip_space();
            if self.eat(')') {
                return Ok(names);
            }
            if !self.eat(',') {
                bail!("line {}: expected , or ) in the column list", self.line);
            }
        }
    }

    /// `v, v, ...)`: a row's values after its `(`.
    fn values(&mut self) -> Result<Vec<Option<String>>> {
        let mut values = Vec::new();
        loop {
            self.skip_space();
            values.push(self.value()?);
            self.skip_space();
            if self.eat(')') {
                return Ok(values);
            }
            if !self.eat(',') {
                bail!("line {}: expected , or ) in a row", self.line);
            }
        }
    }

    fn value(&mut self) -> Result<Option<String>> {
        // `_binary 'x'` and `_utf8mb4'x'`: an introducer before a string.
        if self.text.starts_with('_') {
            while self
                .text
                .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            {
                self.bump();
            }
            self.skip_space();
        }
        if self.eat('\'') {
            return self.string().map(Some);
        }
        if self.eat_word("NULL") {
            return Ok(None);
        }
        let mut bare = String::new();
        while self
            .text
            .starts_with(|c: char| c.is_ascii_alphanumeric() || "+-.".contains(c))
        {
            bare.extend(self.bump());
        }
        if bare.is_empty() {
            bail!("line {}: expected a value", self.line);
        }
        Ok(Some(bare))
    }

    /// The rest of a quoted string, after its `'`.
    fn string(&mut self) -> Result<String> {
        let mut out = String::new();
        loop {
            match self.bump() {
                None => bail!("a string does not end"),
                Some('\'') if self.eat('\'') => out.push('\''),
                Some('\'') => return Ok(out),
                Some('\\') => match self.bump() {
                    Some('n') => out.push('\n'),
                    Some('r') => out.push('\r'),
                    Some('t') => out.push('\t'),
                    Some('0') => out.push('\0'),
                    Some('Z') => out.push('\u{1a}'),
                    Some('b') => out.push('\u{8}'),
                    Some(c) => out.push(c),
                    None => bail!("a string ends in a backslash"),
                },
                Some(c) => out.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_their_escapes_lines_and_nulls() {
        let dump = "-- x\nINSERT INTO `t` VALUES\n('a\\'b','He said \\\"hi\\\" \\\\ 100%',NULL,3),\n('c''d','line\\nnext',_binary 'z',-1.5);\nINSERT INTO `t` (`k`, `v`) VALUES ('e','f');\n";
        let (columns, rows) = rows(dump, "t").expect("rows");
        assert_eq!(columns, ["k", "v"]);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].line, 3);
        assert_eq!(
            rows[0].values,
            [
                Some("a'b".into()),
                Some("He said \"hi\" \\ 100%".into()),
                None,
                Some("3".into())
            ]
        );
        assert_eq!(rows[1].line, 4);
        assert_eq!(rows[1].values[0].as_deref(), Some("c'd"));
        assert_eq!(rows[1].values[1].as_deref(), Some("line\nnext"));
        assert_eq!(rows[1].values[2].as_deref(), Some("z"));
        assert_eq!(rows[2].line, 5);
        assert!(super::rows("CREATE TABLE `t` (x int);", "t").is_err());
        assert!(super::rows("INSERT INTO `t` VALUES ('open", "t").is_err());
    }
}
