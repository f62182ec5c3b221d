//! Links the system's liburiparser, found with pkg-config, and passes its
//! version on to the crate (`URIPARSER_VERSION`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    // 0.9.0 is the first release with uriParseSingleUriExA (the explicit end
    // pointer this crate relies on) and the memory-manager API generation.
    match pkg_config::Config::new()
        .atleast_version("0.9.0")
        .probe("liburiparser")
    {
        Ok(library) => {
            println!("cargo:rustc-env=URIPARSER_VERSION={}", library.version);
        }
        Err(e) => {
            // A build script reports failure through its exit status; the
            // message says how to get the library.
            eprintln!(
                "uriparser-ffi needs the uriparser C library (>= 0.9.0) and its pkg-config file:\n\
                 run `bash scripts/setup-oracles.sh` (it installs Debian's liburiparser-dev),\n\
                 or `apt-get install liburiparser-dev pkg-config`.\n\
                 pkg-config said: {e}"
            );
            std::process::exit(1);
        }
    }
}
