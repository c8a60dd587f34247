//! The Jupyter wire format (messaging protocol 5.3): a message is the routing
//! identities, the `<IDS|MSG>` delimiter, an HMAC signature, then the header,
//! parent header, metadata and content as JSON, then any binary buffers.
//! Messages cross threads as `Message` (plain data); only the socket thread
//! turns them into frames and signs them.

use std::sync::atomic::{AtomicU64, Ordering};

use hmac::{KeyInit, Mac};
use serde_json::{Value, json};

pub const PROTOCOL_VERSION: &str = "5.3";
const DELIMITER: &[u8] = b"<IDS|MSG>";

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// One message, decoded.
#[derive(Clone, Debug)]
pub struct Message {
    /// ROUTER identities on shell and control; the topic on iopub.
    pub identities: Vec<Vec<u8>>,
    pub header: Value,
    pub parent_header: Value,
    pub metadata: Value,
    pub content: Value,
    pub buffers: Vec<Vec<u8>>,
}

impl Message {
    pub fn msg_type(&self) -> &str {
        self.header["msg_type"].as_str().unwrap_or("")
    }

    /// A message caused by `parent` (its reply, or what it published): it goes
    /// back to the same peer, and names `parent` as its parent.
    pub fn child(parent: &Message, session: &str, msg_type: &str, content: Value) -> Message {
        Message {
            identities: parent.identities.clone(),
            header: header(session, msg_type),
            parent_header: parent.header.clone(),
            metadata: json!({}),
            content,
            buffers: vec![],
        }
    }

    /// An iopub message: the topic is its type, as ipykernel's are
    /// (clients subscribe to everything).
    pub fn publish(
        parent_header: &Value,
        session: &str,
        msg_type: &str,
        content: Value,
    ) -> Message {
        Message {
            identities: vec![msg_type.as_bytes().to_vec()],
            header: header(session, msg_type),
            parent_header: parent_header.clone(),
            metadata: json!({}),
            content,
            buffers: vec![],
        }
    }
}

fn header(session: &str, msg_type: &str) -> Value {
    json!({
        "msg_id": new_id(),
        "session": session,
        "username": "tsh",
        "date": now_iso8601(),
        "msg_type": msg_type,
        "version": PROTOCOL_VERSION,
    })
}

/// Signs outgoing messages and checks incoming ones; an empty key means no
/// signing, as the protocol says.
pub struct Signer {
    key: Vec<u8>,
}

impl Signer {
    pub fn new(key: &[u8]) -> Signer {
        Signer { key: key.to_vec() }
    }

    fn mac(&self, parts: &[&[u8]]) -> Option<HmacSha256> {
        if self.key.is_empty() {
            return None;
        }
        // HMAC takes keys of any length; this cannot fail.
        let mut mac = HmacSha256::new_from_slice(&self.key).ok()?;
        for p in parts {
            mac.update(p);
        }
        Some(mac)
    }

    pub fn sign(&self, parts: &[&[u8]]) -> String {
        match self.mac(parts) {
            Some(mac) => hex(&mac.finalize().into_bytes()),
            None => String::new(),
        }
    }

    /// Is `signature` (hex) right for these parts? Compared in constant time.
    pub fn verify(&self, parts: &[&[u8]], signature: &[u8]) -> bool {
        match self.mac(parts) {
            None => true,
            Some(mac) => unhex(signature).is_some_and(|sig| mac.verify_slice(&sig).is_ok()),
        }
    }

    /// The frames of `msg`, signed.
    pub fn encode(&self, msg: &Message) -> Vec<Vec<u8>> {
        let parts: Vec<Vec<u8>> = [&msg.header, &msg.parent_header, &msg.metadata, &msg.content]
            .iter()
            .map(|v| serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec()))
            .collect();
        let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        let signature = self.sign(&refs);
        let mut frames = msg.identities.clone();
        frames.push(DELIMITER.to_vec());
        frames.push(signature.into_bytes());
        frames.extend(parts);
        frames.extend(msg.buffers.iter().cloned());
        frames
    }

    /// Decode frames as received; Err says why they are not a message we accept.
    pub fn decode(&self, frames: &[&[u8]]) -> Result<Message, String> {
        let at = frames
            .iter()
            .position(|f| *f == DELIMITER)
            .ok_or("no <IDS|MSG> delimiter")?;
        if frames.len() < at + 6 {
            return Err(format!(
                "{} frames after the delimiter, not 5",
                frames.len() - at - 1
            ));
        }
        let parts = &frames[at + 2..at + 6];
        if !self.verify(parts, frames[at + 1]) {
            return Err("bad signature".into());
        }
        let json = |i: usize, what: &str| -> Result<Value, String> {
            serde_json::from_slice(parts[i]).map_err(|e| format!("{what} is not JSON: {e}"))
        };
        let header = json(0, "header")?;
        if !header.is_object() || !header["msg_type"].is_string() {
            return Err("the header has no msg_type".into());
        }
        Ok(Message {
            identities: frames[..at].iter().map(|f| f.to_vec()).collect(),
            header,
            parent_header: json(1, "parent_header")?,
            metadata: json(2, "metadata")?,
            content: json(3, "content")?,
            buffers: frames[at + 6..].iter().map(|f| f.to_vec()).collect(),
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &[u8]) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.chunks(2)
        .map(|p| {
            let d = |c: u8| (c as char).to_digit(16);
            Some((d(p[0])? * 16 + d(p[1])?) as u8)
        })
        .collect()
}

/// A fresh id in the shape of a UUID: random enough for message and session
/// ids (each process's hasher keys are random; a counter makes ids distinct).
pub fn new_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let word = |salt: u64| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(n);
        h.write_u64(nanos);
        h.write_u64(salt);
        h.write_u32(std::process::id());
        h.finish()
    };
    let s = format!("{:016x}{:016x}", word(1), word(2));
    format!(
        "{}-{}-{}-{}-{}",
        &s[..8],
        &s[8..12],
        &s[12..16],
        &s[16..20],
        &s[20..]
    )
}

/// Now, in UTC, as ISO 8601 with microseconds (what Jupyter writes).
pub fn now_iso8601() -> String {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    iso8601(d.as_secs() as i64, d.subsec_micros())
}

fn iso8601(secs: i64, micros: u32) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{micros:06}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_iso8601() {
        assert_eq!(iso8601(0, 0), "1970-01-01T00:00:00.000000Z");
        assert_eq!(
            iso8601(951_782_400 + 3661, 5),
            "2000-02-29T01:01:01.000005Z"
        );
        assert_eq!(
            iso8601(1_735_689_599, 999_999),
            "2024-12-31T23:59:59.999999Z"
        );
    }

    #[test]
    fn ids_differ_and_look_like_uuids() {
        let (a, b) = (new_id(), new_id());
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(a.matches('-').count(), 4);
    }

    #[test]
    fn hmac_sha256_matches_rfc4231() {
        // RFC 4231 test case 2.
        let s = Signer::new(b"Jefe");
        assert_eq!(
            s.sign(&[b"what do ya want ", b"for nothing?"]),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn messages_round_trip_and_bad_signatures_are_refused() {
        let s = Signer::new(b"key");
        let parent = Message::publish(&json!({}), "s", "execute_request", json!({"code": "1"}));
        let mut msg = Message::child(&parent, "s", "execute_reply", json!({"status": "ok"}));
        msg.identities = vec![b"peer".to_vec()];
        let frames = s.encode(&msg);
        let refs: Vec<&[u8]> = frames.iter().map(Vec::as_slice).collect();
        let back = s.decode(&refs).unwrap();
        assert_eq!(back.identities, vec![b"peer".to_vec()]);
        assert_eq!(back.msg_type(), "execute_reply");
        assert_eq!(back.parent_header["msg_type"], "execute_request");
        assert!(Signer::new(b"other").decode(&refs).is_err());
        assert!(Signer::new(b"").decode(&refs).is_ok());
        assert!(s.decode(&refs[..4]).is_err());
        assert!(s.decode(&[b"junk"]).is_err());
    }
}
