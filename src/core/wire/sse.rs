//! An incremental Server-Sent-Events decoder (the WHATWG event-stream grammar). Any chunking of
//! the same bytes yields the same events: lines are split on LF, CR or CRLF at byte level (a CR
//! at the end of one chunk and an LF at the start of the next are one line end), and a line is
//! decoded as UTF-8 only once it is complete, so a character split across chunks is intact.

/// One dispatched event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field; empty for the default `message` type.
    pub event: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// The decoder's state between chunks.
///
/// ```
/// # use toolnexus::core::wire::sse::SseDecoder;
/// let mut d = SseDecoder::default();
/// assert!(d.feed(b"data: he").is_empty());
/// let events = d.feed(b"llo\n\n");
/// assert_eq!(events[0].data, "hello");
/// ```
#[derive(Debug, Default)]
pub struct SseDecoder {
    line: Vec<u8>,
    after_cr: bool,
    started: bool,
    event: String,
    data: String,
    has_data: bool,
    /// An `id:` field read since the last dispatch.
    id_buffer: Option<String>,
    last_event_id: Option<String>,
    retry_ms: Option<u64>,
}

impl SseDecoder {
    /// Feeds the next chunk; returns the events it completed. Whole lines are read where they
    /// sit in the chunk; only a line split across chunks is gathered in the decoder's buffer.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        let mut rest = chunk;
        // A CR that ended the last chunk and the LF that starts this one are one line end.
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if let Some((b'\n', tail)) = rest.split_first() {
                rest = tail;
            }
        }
        while let Some(end) = rest.iter().position(|&b| b == b'\r' || b == b'\n') {
            let (line, tail) = rest.split_at(end);
            let Some((&stop, mut after)) = tail.split_first() else {
                break;
            };
            if stop == b'\r' {
                match after.split_first() {
                    Some((b'\n', past)) => after = past,
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
            rest = after;
            if self.line.is_empty() {
                self.line_done(line, &mut events);
            } else {
                let mut whole = std::mem::take(&mut self.line);
                whole.extend_from_slice(line);
                self.line_done(&whole, &mut events);
                whole.clear();
                self.line = whole;
            }
        }
        self.line.extend_from_slice(rest);
        events
    }

    /// Ends the stream: a last line without its line end is still read, and an event that
    /// was not followed by a blank line is still dispatched.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut events = Vec::new();
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.line_done(&line, &mut events);
        }
        self.dispatch(&mut events);
        events
    }

    fn line_done(&mut self, raw: &[u8], events: &mut Vec<SseEvent>) {
        let text = match std::str::from_utf8(raw) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => std::borrow::Cow::Owned(crate::core::text::from_utf8_lossy(raw)),
        };
        let mut line: &str = &text;
        if !self.started {
            self.started = true;
            line = line.strip_prefix('\u{feff}').unwrap_or(line);
        }
        if line.is_empty() {
            self.dispatch(events);
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = value.to_owned(),
            "id" if !value.bytes().any(|b| b == 0) => self.id_buffer = Some(value.to_owned()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry_ms = value.parse().ok();
            }
            _ => {}
        }
    }

    /// The id of the last event dispatched (the stream's "last event ID", which a reconnection
    /// sends as `Last-Event-ID`); `None` until an event carried an `id:` field.
    ///
    /// ```
    /// # use toolnexus::core::wire::sse::SseDecoder;
    /// let mut d = SseDecoder::default();
    /// d.feed(b"id: 7\nretry: 500\ndata:\n\n");
    /// assert_eq!((d.last_event_id(), d.retry_ms()), (Some("7"), Some(500)));
    /// ```
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// The reconnection delay the last `retry:` field asked for, in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry_ms
    }

    fn dispatch(&mut self, events: &mut Vec<SseEvent>) {
        if let Some(id) = self.id_buffer.take() {
            self.last_event_id = Some(id);
        }
        let event = std::mem::take(&mut self.event);
        let data = std::mem::take(&mut self.data);
        if std::mem::take(&mut self.has_data) {
            events.push(SseEvent { event, data });
        }
    }
}
