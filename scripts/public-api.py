#!/usr/bin/env python3
"""Prints the public API of RiderKit's library products, one declaration per line, sorted.

Reads the symbol graphs `swift package dump-symbol-graph` writes (the folder is the first
argument): every symbol with public or open access in the modules below, including their
extensions of other modules (`Module@Other.symbols.json`). A line is the module, the symbol's
path and its declaration as the compiler prints it, so any change an embedder could notice —
a symbol added or removed, a type, label, default or `async`/`throws` changed — changes the
text. No paths, line numbers or doc comments: the file depends on nothing but the API.
"""
import json
import pathlib
import sys

MODULES = ["RiderDomain", "RiderApplication", "RiderInfrastructure", "RiderKit", "RiderKitTesting",
           "RiderURLSession", "RiderReferenceServer", "RiderKitOpenAPI", "RiderKitMCP"]


def lines(folder: pathlib.Path):
    for module in MODULES:
        for graph in sorted(folder.glob(f"{module}.symbols.json")) + sorted(folder.glob(f"{module}@*.symbols.json")):
            data = json.loads(graph.read_text())
            for symbol in data["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
                declaration = " ".join(declaration.split())
                path = ".".join(symbol["pathComponents"])
                extended = graph.stem.split("@", 1)[1].removesuffix(".symbols") if "@" in graph.stem else None
                where = f"{module} (extends {extended})" if extended else module
                yield f"{where} | {path} | {declaration}"


def main():
    folder = pathlib.Path(sys.argv[1])
    missing = [m for m in MODULES if not (folder / f"{m}.symbols.json").exists()]
    if missing:
        sys.exit(f"public-api: no symbol graph for {', '.join(missing)} in {folder}")
    for line in sorted(set(lines(folder))):
        print(line)


if __name__ == "__main__":
    main()
