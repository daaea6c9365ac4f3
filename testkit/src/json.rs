//! A small JSON reader (no serde): enough for the conformance case files
//! (`{"id", "op", "args", "expect"}` one object a line) and the kernel models.
//! The one copy in the workspace for tests, benchmarks and `poly bench`.

use std::fmt;

/// A JSON value. Numbers keep their text (they may exceed 64 bits).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written.
    Num(String),
    /// A string (escapes decoded).
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object, keys in order of appearance.
    Obj(Vec<(String, Json)>),
}

/// A syntax error: byte offset and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// Byte offset in the input.
    pub offset: usize,
    /// What the reader expected there.
    pub expected: &'static str,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "JSON syntax error at byte {}: expected {}",
            self.offset, self.expected
        )
    }
}

impl std::error::Error for JsonError {}

impl Json {
    /// Parse one JSON value (surrounding white space allowed, nothing else).
    pub fn parse(text: &str) -> Result<Json, JsonError> {
        let mut r = Reader {
            s: text.as_bytes(),
            i: 0,
        };
        let v = r.value(0)?;
        r.ws();
        if r.i != r.s.len() {
            return Err(r.err("end of input"));
        }
        Ok(v)
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(v) => v.iter().find(|(k, _)| k == key).map(|(_, x)| x),
            _ => None,
        }
    }

    /// The text of a string or number.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) | Json::Num(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Arr(v) => Some(v),
            _ => None,
        }
    }

    /// The value as it would be compared with a calculator answer:
    /// strings and numbers as written, booleans as `true` / `false`.
    pub fn to_text(&self) -> String {
        match self {
            Json::Null => "null".into(),
            Json::Bool(b) => b.to_string(),
            Json::Num(s) | Json::Str(s) => s.clone(),
            Json::Arr(_) | Json::Obj(_) => String::new(),
        }
    }
}

const MAX_DEPTH: usize = 256;

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn err(&self, expected: &'static str) -> JsonError {
        JsonError {
            offset: self.i,
            expected,
        }
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn lit(&mut self, word: &str, v: Json) -> Result<Json, JsonError> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.err("a value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.err("less nesting"));
        }
        self.ws();
        match self.s.get(self.i) {
            None => Err(self.err("a value")),
            Some(b'{') => {
                self.i += 1;
                let mut v = Vec::new();
                if self.eat(b'}') {
                    return Ok(Json::Obj(v));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    if !self.eat(b':') {
                        return Err(self.err("`:`"));
                    }
                    v.push((k, self.value(depth + 1)?));
                    if self.eat(b',') {
                        continue;
                    }
                    if self.eat(b'}') {
                        return Ok(Json::Obj(v));
                    }
                    return Err(self.err("`,` or `}`"));
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut v = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Arr(v));
                }
                loop {
                    v.push(self.value(depth + 1)?);
                    if self.eat(b',') {
                        continue;
                    }
                    if self.eat(b']') {
                        return Ok(Json::Arr(v));
                    }
                    return Err(self.err("`,` or `]`"));
                }
            }
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.lit("true", Json::Bool(true)),
            Some(b'f') => self.lit("false", Json::Bool(false)),
            Some(b'n') => self.lit("null", Json::Null),
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let st = self.i;
                self.i += 1;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-'
                    )
                {
                    self.i += 1;
                }
                Ok(Json::Num(
                    String::from_utf8_lossy(&self.s[st..self.i]).into_owned(),
                ))
            }
            Some(_) => Err(self.err("a value")),
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let h = self
            .s
            .get(self.i..self.i + 4)
            .ok_or_else(|| self.err("four hex digits"))?;
        let h = std::str::from_utf8(h).map_err(|_| self.err("four hex digits"))?;
        let v = u32::from_str_radix(h, 16).map_err(|_| self.err("four hex digits"))?;
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        if self.s.get(self.i) != Some(&b'"') {
            return Err(self.err("a string"));
        }
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.i) else {
                return Err(self.err("closing `\"`"));
            };
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.s.get(self.i) else {
                        return Err(self.err("an escape"));
                    };
                    self.i += 1;
                    let ch = match e {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'"' | b'\\' | b'/' => e as char,
                        b'u' => {
                            let mut v = self.hex4()?;
                            if (0xD800..0xDC00).contains(&v) && self.s[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                v = 0x10000
                                    + ((v - 0xD800) << 10)
                                    + (lo.wrapping_sub(0xDC00) & 0x3FF);
                            }
                            char::from_u32(v).unwrap_or('\u{FFFD}')
                        }
                        _ => return Err(self.err("a valid escape")),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| self.err("UTF-8 text"))
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn reads_a_case_line() {
        let j = Json::parse(
            r#"{"id": "s-1", "op": "lexmin", "args": ["{ [i] : i >= 0 }", 2], "expect": true}"#,
        )
        .unwrap();
        assert_eq!(j.get("id").and_then(Json::as_str), Some("s-1"));
        let args = j.get("args").and_then(Json::as_array).unwrap();
        assert_eq!(args[0].as_str(), Some("{ [i] : i >= 0 }"));
        assert_eq!(args[1], Json::Num("2".into()));
        assert_eq!(j.get("expect").unwrap().to_text(), "true");
        assert_eq!(j.get("missing"), None);
    }

    #[test]
    fn decodes_escapes_and_nesting() {
        let j =
            Json::parse(r#" [ "a\"b\\c\n\u00e9\ud83d\ude00", [], {}, null, -12.5e3 ] "#).unwrap();
        let v = j.as_array().unwrap();
        assert_eq!(v[0].as_str(), Some("a\"b\\c\né😀"));
        assert_eq!(v[1], Json::Arr(vec![]));
        assert_eq!(v[2], Json::Obj(vec![]));
        assert_eq!(v[3], Json::Null);
        assert_eq!(v[4].as_str(), Some("-12.5e3"));
    }

    #[test]
    fn rejects_malformed_input() {
        for bad in [
            "",
            "{",
            "[1,",
            "{\"a\" 1}",
            "\"abc",
            "[1] x",
            "tru",
            "{1: 2}",
            "\"\\q\"",
        ] {
            assert!(Json::parse(bad).is_err(), "{bad:?} should be rejected");
        }
        let deep = "[".repeat(1000);
        assert!(Json::parse(&deep).is_err());
    }
}
