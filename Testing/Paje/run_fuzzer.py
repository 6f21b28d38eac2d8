#!/usr/bin/env python3
"""Builds the Pajé parser's libFuzzer target with clang in a separate build
directory (Testing/Paje/Fuzz) and runs it for a bounded time on the seed
corpus. Fails when clang or libFuzzer is missing, when the build fails, and
when the fuzzer finds an input that crashes the parser, trips a sanitizer,
throws anything but ParseError, leaks, or runs out of time or memory; the
input's path is printed with the command that reproduces it."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(command, **kwargs):
    print("+ " + " ".join(command), flush=True)
    return subprocess.run(command, **kwargs)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", required=True, help="Testing/Paje/Fuzz")
    parser.add_argument("--build", required=True, help="build directory of the fuzz target")
    parser.add_argument("--corpus", required=True, help="seed corpus (not modified)")
    parser.add_argument("--cmake", required=True)
    parser.add_argument("--clang", default="", help="C compiler (clang)")
    parser.add_argument("--clangxx", default="", help="C++ compiler (clang++)")
    parser.add_argument("--seconds", type=int, default=60, help="fuzzing time")
    parser.add_argument("--jobs", type=int, default=2, help="parallel compile jobs")
    arguments = parser.parse_args()

    for name, path in (("clang", arguments.clang), ("clang++", arguments.clangxx)):
        if not path or not os.access(path, os.X_OK):
            fail("%s was not found (got %r): the Pajé fuzzer needs clang and libFuzzer; "
                 "install the Debian packages clang and libclang-rt-14-dev "
                 "(scripts/deps.sh) and reconfigure" % (name, path))
    seeds = sorted(glob.glob(os.path.join(arguments.corpus, "*")))
    if not seeds:
        fail("the seed corpus %s is empty" % arguments.corpus)

    started = time.monotonic()
    configure = run([arguments.cmake, "-S", arguments.source, "-B", arguments.build,
                     "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                     "-DCMAKE_C_COMPILER=" + arguments.clang,
                     "-DCMAKE_CXX_COMPILER=" + arguments.clangxx])
    if configure.returncode != 0:
        fail("configuring the fuzz build in %s failed" % arguments.build)
    build = run([arguments.cmake, "--build", arguments.build, "--target", "macroscope-paje-fuzz",
                 "--parallel", str(arguments.jobs)])
    if build.returncode != 0:
        fail("building the fuzz target in %s failed (is libclang-rt-14-dev, which ships "
             "libFuzzer, installed?)" % arguments.build)
    built = time.monotonic()
    print("fuzz build: %.0f s" % (built - started), flush=True)

    fuzzer = os.path.join(arguments.build, "macroscope-paje-fuzz")
    # New inputs go to a scratch corpus, so the committed seeds stay as they are.
    work = os.path.join(arguments.build, "corpus")
    artifacts = os.path.join(arguments.build, "artifacts")
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(artifacts, ignore_errors=True)
    os.makedirs(work)
    os.makedirs(artifacts)
    result = run([fuzzer, "-max_total_time=%d" % arguments.seconds, "-timeout=10",
                  "-rss_limit_mb=2048", "-print_final_stats=1",
                  "-artifact_prefix=" + artifacts + os.sep, work, arguments.corpus],
                 stderr=subprocess.PIPE, universal_newlines=True)
    log = result.stderr
    sys.stderr.write(log[-6000:])
    found = sorted(glob.glob(os.path.join(artifacts, "*")))
    if result.returncode != 0 or found:
        for path in found:
            print("FUZZER INPUT: %s\n  reproduce: %s %s" % (path, fuzzer, path), file=sys.stderr)
        fail("the fuzzer exited with %d after %.0f s; %d input(s) in %s"
             % (result.returncode, time.monotonic() - built, len(found), artifacts))
    runs = re.search(r"Done (\d+) runs", log)
    if not runs or int(runs.group(1)) == 0:
        fail("the fuzzer did not report any run")
    print("ok: %s runs in %d s, no crash; build %.0f s"
          % (runs.group(1), arguments.seconds, built - started))


if __name__ == "__main__":
    main()
