"""pbp's templates: the words of every mail and post, the help texts, and the settings file
`pbp init` writes (settings.example.ini). This folder stays at the repository's top level,
where a host re-words it, and ships inside pbp as the data package `pbp.templates`
(docs/design.md: Packaging); pbp finds it through `pbp.release.templates_folder`."""
