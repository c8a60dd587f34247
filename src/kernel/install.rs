//! `tsh kernel install` / `uninstall`: the kernelspec (kernel.json and two
//! logos) in the data directory Jupyter itself reads, found by Jupyter's rules.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::json;

use super::canvas::{Canvas, Rgb, text_width};

/// Where to install: as `python -m ipykernel install` offers.
pub enum Location {
    /// The user's Jupyter data directory (the default).
    User,
    /// `share/jupyter` under the prefix of the `python3` on PATH (a virtualenv or conda env).
    SysPrefix,
    /// `share/jupyter` under this prefix.
    Prefix(PathBuf),
}

/// The `jupyter` data directory for `location`.
pub fn data_dir(location: &Location) -> Result<PathBuf, String> {
    match location {
        Location::User => user_data_dir(),
        Location::SysPrefix => Ok(python_prefix()?.join("share").join("jupyter")),
        Location::Prefix(p) => Ok(p.join("share").join("jupyter")),
    }
}

fn env_dir(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// jupyter_core's `jupyter_data_dir()`.
fn user_data_dir() -> Result<PathBuf, String> {
    if let Some(d) = env_dir("JUPYTER_DATA_DIR") {
        return Ok(d);
    }
    if cfg!(windows) {
        return env_dir("APPDATA")
            .map(|a| a.join("jupyter"))
            .ok_or_else(|| "APPDATA is not set".into());
    }
    let home = env_dir("HOME").ok_or("HOME is not set")?;
    if cfg!(target_os = "macos") {
        return Ok(home.join("Library").join("Jupyter"));
    }
    Ok(env_dir("XDG_DATA_HOME")
        .unwrap_or_else(|| home.join(".local").join("share"))
        .join("jupyter"))
}

/// `sys.prefix` of the Python on PATH.
fn python_prefix() -> Result<PathBuf, String> {
    let python = if cfg!(windows) { "python" } else { "python3" };
    let out = std::process::Command::new(python)
        .args(["-c", "import sys; print(sys.prefix)"])
        .output()
        .map_err(|e| {
            format!("--sys-prefix asks {python} for its prefix, but it did not run: {e}")
        })?;
    let prefix = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || prefix.is_empty() {
        return Err(format!("{python} did not say its sys.prefix"));
    }
    Ok(PathBuf::from(prefix))
}

/// Jupyter's rule for kernel names: letters, digits, `.`, `_` and `-`.
fn check_name(name: &str) -> Result<(), String> {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    {
        Ok(())
    } else {
        Err(format!(
            "`{name}` cannot name a kernel: use letters, digits, `.`, `_` and `-`"
        ))
    }
}

/// The kernelspec's folder: `<data dir>/kernels/<name>`.
pub fn spec_dir(location: &Location, name: &str) -> Result<PathBuf, String> {
    check_name(name)?;
    Ok(data_dir(location)?.join("kernels").join(name))
}

/// kernel.json for a kernel started as `exe kernel --connection-file F`.
pub fn kernel_json(exe: &Path) -> serde_json::Value {
    json!({
        "argv": [exe.to_string_lossy(), "kernel", "--connection-file", "{connection_file}"],
        "display_name": "tsh",
        "language": "tsh",
        "interrupt_mode": "message",
        "env": {},
        "metadata": {"debugger": false},
    })
}

pub fn install(location: &Location, name: &str) -> Result<PathBuf, String> {
    let dir = spec_dir(location, name)?;
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| format!("cannot find the tsh binary's own path: {e}"))?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let spec = serde_json::to_string_pretty(&kernel_json(&exe)).unwrap_or_default();
    let write = |file: &str, bytes: &[u8]| {
        let path = dir.join(file);
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write("kernel.json", format!("{spec}\n").as_bytes())?;
    write("logo-32x32.png", &logo(32).bytes)?;
    write("logo-64x64.png", &logo(64).bytes)?;
    Ok(dir)
}

pub fn uninstall(location: &Location, name: &str) -> Result<PathBuf, String> {
    let dir = spec_dir(location, name)?;
    if !dir.join("kernel.json").is_file() {
        return Err(format!("no kernelspec at {}", dir.display()));
    }
    std::fs::remove_dir_all(&dir).map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
    Ok(dir)
}

/// The logo: "tsh" in the shell's prompt green on a dark square.
pub fn logo(size: usize) -> super::png::Png {
    const DARK: Rgb = [34, 39, 46];
    const GREEN: Rgb = [87, 199, 104];
    let mut c = Canvas::new(size, size, DARK);
    let scale = (size / 28).max(1);
    let w = text_width("tsh", scale);
    let h = super::font::HEIGHT * scale;
    let (x, y) = ((size - w.min(size)) / 2, (size - h.min(size)) / 2);
    c.text(x as i64, y as i64, "tsh", scale, GREEN);
    // A prompt-like underline under the text.
    let line_y = (y + h + 2 * scale) as i64;
    c.fill(
        x as i64,
        line_y,
        (x + w) as i64,
        line_y + scale as i64,
        GREEN,
    );
    c.into_png()
}

/// `tsh kernel install|uninstall`: do it and say where.
pub fn run(install_it: bool, location: &Location, name: &str) -> ExitCode {
    let result = if install_it {
        install(location, name)
            .map(|d| format!("Installed the tsh kernel as `{name}` in {}", d.display()))
    } else {
        uninstall(location, name).map(|d| format!("Removed the kernelspec {}", d.display()))
    };
    match result {
        Ok(said) => {
            println!("{said}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error[io]: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_jupyters_rule() {
        assert!(check_name("tsh").is_ok() && check_name("tsh-2.x_y").is_ok());
        assert!(
            check_name("").is_err() && check_name("a/b").is_err() && check_name("..x y").is_err()
        );
    }

    #[test]
    fn prefix_installs_under_share_jupyter() {
        let d = spec_dir(&Location::Prefix("/opt/env".into()), "tsh").unwrap();
        assert_eq!(d, PathBuf::from("/opt/env/share/jupyter/kernels/tsh"));
    }

    #[test]
    fn logos_are_pngs_of_their_size() {
        let l = logo(64);
        assert_eq!((l.width, l.height), (64, 64));
        assert_eq!(&l.bytes[..4], b"\x89PNG");
    }
}
