//! The cache root: where `scripts/setup-oracles.sh` installs the shipped
//! adapters' pinned libraries and where built programs are kept. Finding it
//! and checking it live here, so that every way it can be wrong (unset, not
//! UTF-8, not a directory, unreadable, not writable) is said as what it is,
//! with the path the user gave, instead of surfacing later as a library
//! that is "not installed" or a test that "does not build".

use std::ffi::OsStr;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The cache root, and how to name it in a message.
#[derive(Debug, Clone)]
pub(crate) struct Root {
    /// Absolute: adapters and builds run in other working directories, and
    /// Node reads a relative `require` path as a package name.
    path: PathBuf,
    /// The root as the user gave it (see [`origin`]).
    origin: String,
}

/// Why there is no usable cache root.
#[derive(Debug)]
pub struct CacheRootError {
    /// The variable and the value it was read from (see [`origin`]).
    origin: String,
    problem: Problem,
}

#[derive(Debug)]
enum Problem {
    Unset,
    NotUtf8,
    NotDirectory,
    Unreadable(io::Error),
    Unwritable(PathBuf, io::Error),
    Relative(io::Error),
}

impl fmt::Display for CacheRootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let origin = &self.origin;
        match &self.problem {
            Problem::Unset => write!(
                f,
                "no cache root: none of URIDIFF_CACHE, XDG_CACHE_HOME and HOME is set"
            ),
            // Adapters get the root's paths as text (a Node program reads
            // its environment as UTF-8), so a root that is not cannot work.
            Problem::NotUtf8 => write!(
                f,
                "{origin} is not UTF-8: the adapters are given its paths as text; set URIDIFF_CACHE to a UTF-8 path"
            ),
            Problem::NotDirectory => write!(f, "{origin} is not a directory"),
            Problem::Unreadable(e) => write!(f, "{origin} cannot be read: {e}"),
            Problem::Unwritable(path, e) => {
                write!(f, "{origin}: cannot write {}: {e}", path.display())
            }
            Problem::Relative(e) => write!(
                f,
                "{origin} is relative and the current directory cannot be read: {e}"
            ),
        }
    }
}

impl std::error::Error for CacheRootError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            Problem::Unreadable(e) | Problem::Unwritable(_, e) | Problem::Relative(e) => Some(e),
            _ => None,
        }
    }
}

/// How a message names the root: `URIDIFF_CACHE=/x` when the user gave it
/// whole, else the root with the variable it came from. The value is
/// Debug-quoted when it is not UTF-8, so its bytes show.
fn origin(variable: &str, value: &OsStr, root: &Path) -> String {
    let shown = |v: &OsStr| match v.to_str() {
        Some(text) => text.to_owned(),
        None => format!("{v:?}"),
    };
    if variable == "URIDIFF_CACHE" {
        format!("URIDIFF_CACHE={}", shown(value))
    } else {
        format!(
            "the cache root {} (from {variable}={})",
            shown(root.as_os_str()),
            shown(value)
        )
    }
}

/// The cache root: `$URIDIFF_CACHE`, else `$XDG_CACHE_HOME/uridiff`, else
/// `$HOME/.cache/uridiff` (empty variables count as unset), made
/// absolute, and checked: UTF-8, and a readable directory if it exists
/// (one that does not exist yet is fine: nothing is installed in it).
pub(crate) fn locate() -> Result<Root, CacheRootError> {
    let var = |name: &'static str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(|v| (name, v))
    };
    let Some((variable, value)) = var("URIDIFF_CACHE")
        .or_else(|| var("XDG_CACHE_HOME"))
        .or_else(|| var("HOME"))
    else {
        return Err(CacheRootError {
            origin: String::new(),
            problem: Problem::Unset,
        });
    };
    let given = match variable {
        "URIDIFF_CACHE" => PathBuf::from(&value),
        "XDG_CACHE_HOME" => Path::new(&value).join("uridiff"),
        _ => Path::new(&value).join(".cache").join("uridiff"),
    };
    let origin = origin(variable, &value, &given);
    let fail = |problem| CacheRootError {
        origin: origin.clone(),
        problem,
    };
    if given.to_str().is_none() {
        return Err(fail(Problem::NotUtf8));
    }
    let path = std::path::absolute(&given).map_err(|e| fail(Problem::Relative(e)))?;
    // The current directory may itself not be UTF-8.
    if path.to_str().is_none() {
        return Err(fail(Problem::NotUtf8));
    }
    check_readable(&path).map_err(fail)?;
    Ok(Root { path, origin })
}

/// A root that exists must be a directory this process can list; one that
/// does not exist yet is fine.
fn check_readable(path: &Path) -> Result<(), Problem> {
    match std::fs::read_dir(path) {
        Ok(_) => Ok(()),
        Err(e) => classify(path, e),
    }
}

/// What an error reading the root means: a missing root is no error, a
/// file where a directory should be is [`Problem::NotDirectory`], anything
/// else (permission denied) is [`Problem::Unreadable`].
fn classify(path: &Path, error: io::Error) -> Result<(), Problem> {
    match error.kind() {
        io::ErrorKind::NotFound => Ok(()),
        io::ErrorKind::NotADirectory => Err(Problem::NotDirectory),
        // read_dir of a regular file fails with ENOTDIR too, but say it
        // from the file's type when the error kind is another.
        _ if path.is_file() => Err(Problem::NotDirectory),
        _ => Err(Problem::Unreadable(error)),
    }
}

impl Root {
    /// A root at `path` (absolute, UTF-8), for tests.
    #[cfg(test)]
    pub(crate) fn at(path: &Path) -> Root {
        Root {
            path: path.to_owned(),
            origin: format!("URIDIFF_CACHE={}", path.display()),
        }
    }

    /// The absolute path, as text (checked UTF-8 by [`locate`]).
    pub(crate) fn text(&self) -> &str {
        self.path.to_str().unwrap_or_default()
    }

    /// The absolute path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// `sub` (a relative path) under the root, created with its parents:
    /// an error that names the root as the user gave it and the directory
    /// that could not be made (a root that is a file, read-only, full).
    pub(crate) fn create(&self, sub: &Path) -> Result<PathBuf, CacheRootError> {
        let dir = self.path.join(sub);
        std::fs::create_dir_all(&dir).map_err(|e| self.unwritable(&dir, e))?;
        Ok(dir)
    }

    /// The error for a failed write at `path`, under the root.
    pub(crate) fn unwritable(&self, path: &Path, error: io::Error) -> CacheRootError {
        let problem = if error.kind() == io::ErrorKind::NotADirectory || self.path.is_file() {
            Problem::NotDirectory
        } else {
            Problem::Unwritable(path.to_owned(), error)
        };
        CacheRootError {
            origin: self.origin.clone(),
            problem,
        }
    }
}

/// Checks that files can be written in `dir`: creates one there and writes
/// 64 KiB to it (then removes it). A build that fails only because its
/// disk is full or read-only is told apart from one whose code is wrong.
pub(crate) fn probe_writable(dir: &Path) -> io::Result<()> {
    use std::io::Write;
    let mut file = tempfile::Builder::new()
        .prefix(".uridiff-probe-")
        .tempfile_in(dir)?;
    file.write_all(&[0u8; 1 << 16])?;
    file.as_file().sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(path: &Path) -> Root {
        Root::at(path)
    }

    #[test]
    fn a_root_under_a_file_is_not_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let e = root(&file).create(Path::new("go")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("URIDIFF_CACHE={} is not a directory", file.display())
        );
        assert!(matches!(
            check_readable(&file.join("sub")),
            Err(Problem::NotDirectory)
        ));
        assert!(matches!(check_readable(&file), Err(Problem::NotDirectory)));
        // Not there yet: fine, nothing is installed.
        assert!(check_readable(&dir.path().join("new")).is_ok());
    }

    /// An unreadable root, a read-only or full file system: root (as which
    /// the tests may run) reads and writes through `chmod`, so these errors
    /// are made here, not by the file system.
    #[test]
    fn permission_read_only_and_full_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let e = CacheRootError {
            origin: "URIDIFF_CACHE=/c".to_owned(),
            problem: classify(dir.path(), io::Error::from(io::ErrorKind::PermissionDenied))
                .unwrap_err(),
        };
        assert_eq!(
            e.to_string(),
            "URIDIFF_CACHE=/c cannot be read: permission denied"
        );
        let r = root(dir.path());
        for (kind, said) in [
            (io::ErrorKind::ReadOnlyFilesystem, "read-only"),
            (io::ErrorKind::StorageFull, "storage"),
        ] {
            let e = r.unwritable(&dir.path().join("go"), io::Error::from(kind));
            let text = e.to_string();
            assert!(
                text.starts_with(&format!(
                    "URIDIFF_CACHE={}: cannot write {}: ",
                    dir.path().display(),
                    dir.path().join("go").display()
                )) && text.contains(said),
                "{text}"
            );
        }
    }

    #[test]
    fn the_origin_names_the_variable_and_shows_bytes_that_are_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let odd = OsStr::from_bytes(b"/c\xff");
        assert_eq!(
            origin("URIDIFF_CACHE", odd, Path::new(odd)),
            r#"URIDIFF_CACHE="/c\xFF""#
        );
        assert_eq!(
            origin("HOME", OsStr::new("/h"), Path::new("/h/.cache/uridiff")),
            "the cache root /h/.cache/uridiff (from HOME=/h)"
        );
    }

    #[test]
    fn a_writable_directory_passes_the_probe() {
        let dir = tempfile::tempdir().unwrap();
        probe_writable(dir.path()).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert!(probe_writable(&dir.path().join("missing")).is_err());
    }
}
