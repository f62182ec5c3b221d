//! The commands' file and stream helpers: inputs from arguments, standard
//! input or a file, and files written atomically.

use std::fs;
use std::io::{self, BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file's bytes as an input, exactly (NULs and a trailing newline kept):
/// the outer error is I/O (the file cannot be read, or is no regular file),
/// the inner one says why the bytes are no input (not UTF-8).
pub fn read_file(path: &Path) -> io::Result<Result<String, String>> {
    let meta = fs::metadata(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a regular file", path.display()),
        ));
    }
    let bytes = fs::read(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display())))?;
    Ok(String::from_utf8(bytes).map_err(|e| format!("not valid UTF-8 ({})", e.utf8_error())))
}

/// Standard input, line by line as it arrives: each line's number and its
/// text, or why it is no input (not UTF-8). A trailing `\r` is dropped.
pub fn stdin_lines() -> impl Iterator<Item = io::Result<(usize, Result<String, String>)>> {
    let mut reader = io::stdin().lock();
    let mut n = 0;
    std::iter::from_fn(move || {
        let mut buf = Vec::new();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(_) => {
                n += 1;
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                }
                let text = String::from_utf8(buf)
                    .map_err(|e| format!("not valid UTF-8 ({})", e.utf8_error()));
                Some(Ok((n, text)))
            }
            Err(e) => Some(Err(e)),
        }
    })
}

/// Where `--out` may write. It never replaces a device, FIFO or socket (a
/// report is a regular file; `/dev/null` survives even for root), and it
/// writes through a symbolic link to the file the link names, so that the
/// link stays a link.
pub fn out_target(path: &Path) -> io::Result<PathBuf> {
    let target = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match fs::canonicalize(path) {
            Ok(real) => real,
            // A dangling link: create the file it names.
            Err(_) => {
                let link = fs::read_link(path)?;
                match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                }
            }
        },
        _ => path.to_path_buf(),
    };
    if let Ok(m) = fs::metadata(&target)
        && !m.is_file()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--out {}: not a regular file (a directory, device, FIFO or socket); a report only replaces a regular file",
                path.display()
            ),
        ));
    }
    Ok(target)
}

/// Writes to a temporary file beside `path` and renames it into place, so a
/// reader never sees half a report. Errors name `path`, never the
/// temporary file.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<&fs::File>) -> io::Result<()>,
) -> io::Result<()> {
    let path = &out_target(path)?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    // A temporary file is private (0600); the report it becomes is an
    // ordinary file, readable like anything else the user writes. Keep the
    // mode of a file being replaced (expectations.txt, say).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o777);
        builder.permissions(fs::Permissions::from_mode(mode));
    }
    let tmp = builder.tempfile_in(dir).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!(
                "cannot write {}: cannot create a file in {}: {e}",
                path.display(),
                dir.display()
            ),
        )
    })?;
    {
        let mut w = BufWriter::new(tmp.as_file());
        write(&mut w).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
        })?;
        w.flush().map_err(|e| {
            io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
        })?;
    }
    tmp.persist(path).map_err(|e| {
        io::Error::new(
            e.error.kind(),
            format!("cannot write {}: {}", path.display(), e.error),
        )
    })?;
    Ok(())
}
