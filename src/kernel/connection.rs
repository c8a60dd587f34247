//! The connection file Jupyter writes for a kernel it starts: the ports to bind
//! and the key to sign messages with.

use serde_json::Value;

pub struct Connection {
    pub transport: String,
    pub ip: String,
    pub shell_port: u16,
    pub iopub_port: u16,
    pub stdin_port: u16,
    pub control_port: u16,
    pub hb_port: u16,
    pub key: String,
}

impl Connection {
    pub fn read(path: &std::path::Path) -> Result<Connection, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the connection file {}: {e}", path.display()))?;
        Connection::parse(&text).map_err(|e| format!("the connection file {} {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Connection, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("is not JSON: {e}"))?;
        let port = |name: &str| -> Result<u16, String> {
            v[name]
                .as_u64()
                .and_then(|p| u16::try_from(p).ok())
                .ok_or_else(|| format!("has no port {name}"))
        };
        let text = |name: &str, default: &str| -> String {
            v[name].as_str().unwrap_or(default).to_string()
        };
        let scheme = text("signature_scheme", "hmac-sha256");
        if scheme != "hmac-sha256" {
            return Err(format!(
                "asks for signature scheme {scheme}; tsh signs with hmac-sha256"
            ));
        }
        let transport = text("transport", "tcp");
        if transport != "tcp" {
            return Err(format!("asks for transport {transport}; tsh speaks tcp"));
        }
        Ok(Connection {
            transport,
            ip: text("ip", "127.0.0.1"),
            shell_port: port("shell_port")?,
            iopub_port: port("iopub_port")?,
            stdin_port: port("stdin_port")?,
            control_port: port("control_port")?,
            hb_port: port("hb_port")?,
            key: text("key", ""),
        })
    }

    /// `tcp://ip:port` (a `*` host binds every interface).
    pub fn endpoint(&self, port: u16) -> String {
        let ip = if self.ip == "*" { "0.0.0.0" } else { &self.ip };
        format!("{}://{ip}:{port}", self.transport)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_jupyter_writes() {
        let c = Connection::parse(
            r#"{"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4,
                "hb_port": 5, "ip": "127.0.0.1", "key": "k", "transport": "tcp",
                "signature_scheme": "hmac-sha256", "kernel_name": "tsh"}"#,
        )
        .unwrap();
        assert_eq!(c.endpoint(c.control_port), "tcp://127.0.0.1:4");
        assert_eq!(c.key, "k");
        assert!(Connection::parse(r#"{"shell_port": 1}"#).is_err());
        assert!(Connection::parse("nope").is_err());
    }
}
