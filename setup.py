"""The packages and their data files, which pyproject.toml cannot compute (docs/design.md:
Packaging): every package found in engine/ and pbp/, each shipping its `py.typed` (PEP 561),
and the top-level templates/ folder shipped inside pbp as the data package `pbp.templates`,
its folders as packages of data beside it. Everything else is in pyproject.toml."""

from setuptools import find_namespace_packages, find_packages, setup

CODE = find_packages(include=["engine", "engine.*", "pbp", "pbp.*"])
TEMPLATES = [
    "pbp.templates",
    *(
        f"pbp.templates.{folder}"
        for folder in find_namespace_packages("templates", exclude=["__pycache__", "*.__pycache__"])
    ),
]
# The kinds of file templates/ holds; tests/release/test_package.py fails when a file of
# templates/ is missing from the wheel, so a new kind is added here.
TEMPLATE_FILES = ["*.j2", "*.txt", "*.ini", "*.html", "*.css", "*.js", "*.po", "*.pot", "*.cfg"]

setup(
    packages=[*CODE, *TEMPLATES],
    package_dir={"pbp.templates": "templates"},
    package_data={
        "engine": ["py.typed"],
        "pbp": ["py.typed"],
        "pbp.daemon": ["pbp.service"],  # the systemd unit `pbp service` fills in
        **{name: TEMPLATE_FILES for name in TEMPLATES},
    },
)
