//! The token cursor shared by the LTL parser ([`super::parse`]) and the
//! PSL parser ([`super::psl`], and the vunits built on it): tokens with
//! their spans in the input, a position, a bound on nesting, and errors
//! that point at a span.

use super::parse::{make_error, ParseError, ParseErrorKind, MAX_DEPTH};

/// A range of byte offsets in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// A token of kind `K` and where it is in the input.
#[derive(Clone, Debug)]
pub(crate) struct Spanned<K> {
    pub(crate) kind: K,
    pub(crate) span: Span,
}

/// Token kinds that have an end-of-input token, which the cursor never
/// moves past.
pub(crate) trait EndToken {
    /// Whether this is the end of the input.
    fn is_end(&self) -> bool;
}

/// A position in a token list that ends with its end token.
#[derive(Clone, Debug)]
pub(crate) struct Cursor<'a, K> {
    /// The text the spans point into.
    pub(crate) input: &'a str,
    pub(crate) tokens: Vec<Spanned<K>>,
    /// The next token.
    pub(crate) pos: usize,
    /// Open nesting levels (parentheses, prefix operators), bounded by
    /// [`MAX_DEPTH`] so that a deep formula is an error, not a stack
    /// overflow.
    pub(crate) depth: usize,
}

impl<'a, K: Clone + EndToken> Cursor<'a, K> {
    /// A cursor at the first of `tokens` (which end with the end token),
    /// read from `input`.
    pub(crate) fn new(input: &'a str, tokens: Vec<Spanned<K>>) -> Cursor<'a, K> {
        debug_assert!(tokens.last().is_some_and(|t| t.kind.is_end()));
        Cursor {
            input,
            tokens,
            pos: 0,
            depth: 0,
        }
    }

    /// The next token.
    pub(crate) fn peek(&self) -> &Spanned<K> {
        &self.tokens[self.pos]
    }

    /// The token after the next one (or the end).
    pub(crate) fn peek2(&self) -> &Spanned<K> {
        &self.tokens[(self.pos + 1).min(self.tokens.len() - 1)]
    }

    /// Reads the next token (the end token stays).
    pub(crate) fn next(&mut self) -> Spanned<K> {
        let t = self.tokens[self.pos].clone();
        if !t.kind.is_end() {
            self.pos += 1;
        }
        t
    }

    /// Moves to token `pos` (at most the end).
    pub(crate) fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.tokens.len() - 1);
    }

    /// The span of the last token read.
    pub(crate) fn last_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    /// An error at `span`, with the line, column and caret.
    pub(crate) fn error(&self, span: Span, kind: ParseErrorKind) -> ParseError {
        make_error(self.input, span, kind)
    }

    /// One level deeper (at the token spanning `span`), or an error past
    /// [`MAX_DEPTH`].
    pub(crate) fn enter(&mut self, span: Span) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(span, ParseErrorKind::TooDeep));
        }
        Ok(())
    }

    /// One level up.
    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }
}
