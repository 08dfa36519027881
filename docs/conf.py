# SPDX-License-Identifier: MIT OR Apache-2.0
"""Sphinx configuration of the lwc documentation site (built by tools/docs.sh).

The pages under docs/ are Markdown (MyST). Pages that depend on the sources are generated
into docs/_generated/ before Sphinx reads anything: the algorithm pages from the registry
(through the built lwc module), the C and C++ references from the comments of the public
headers (include/*.h, include/lwc/*.hpp), the C#
reference from the XML documentation the compiler writes, the performance tables from
docs/data/*.json, and the list of the remaining top-level pages.
"""

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT / "tools"))

import docs_gen  # noqa: E402  (tools/docs_gen.py)

project = "lwc"
author = "the lwc authors"
copyright = "the lwc authors; MIT OR Apache-2.0"
release = docs_gen.project_version(ROOT)
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "data", "requirements.txt", "**/.gitignore"]

# Section anchors (#what-a-caller-may-have-consumed-before-a-failure) as GitHub writes them.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist"]

html_theme = "furo"
html_title = f"lwc {release}"
html_static_path = []
html_show_sourcelink = False

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": False}
autodoc_typehints = "signature"

# Only the examples written for the pages run (testcode blocks); the ">>>" lines of the
# package's docstrings are its own tests' business.
doctest_test_doctest_blocks = ""
# Doctest blocks run in a scratch folder so the examples may create files.
doctest_global_setup = """
import importlib.util, os, tempfile
import lwc.batch
os.chdir(tempfile.mkdtemp(prefix="lwc-doctest-"))
cuda_usable = lwc.batch.cuda_available()
dask_installed = importlib.util.find_spec("dask") is not None
"""

# Every C++ cross-reference must resolve (the reference is generated from the headers, so a
# name that does not resolve is a name the reference lacks). The other domains' references
# are not held to this: the Python and C signatures name standard types that no page
# declares. Ignored: C++ namespaces (Sphinx declares none), std:: types, the CUDA runtime's
# stream type, the names a template parameter makes dependent, a member of the list (whose
# alias is shown without its long definition), and jobs:: names in the functions of
# <lwc/cuda.hpp> whose parameter `jobs` hides the namespace in Sphinx's lookup.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r".*"),
    (r"c:.*", r".*"),
    (r"cpp:identifier", r"lwc(::(ascon|v12|v13|jobs|batch|stream|cuda|sparkle|romulus|isap|"
                        r"tinyjambu|photon_beetle|elephant|xoodyak|grain|gift_cofb|acorn))*"),
    (r"cpp:identifier", r"jobs"),
    (r"cpp:identifier", r"std::.*"),
    (r"cpp:identifier", r"CUstream_st"),
    (r"cpp:identifier", r"list_element<I>::type"),
    (r"cpp:identifier", r"algorithm_list::size"),
    (r"cpp:identifier", r"jobs::(packed_aead_jobs|packed_hash_jobs|full_tag)"),
]
# Pages kept by other parts of the project skip heading levels here and there; that costs
# nothing on the site, so it is not an error.
suppress_warnings = ["myst.header"]


# The docstrings are plain text: an example indented under a paragraph is meant as code, as
# reStructuredText reads it only after "::". Marking it so keeps such docstrings readable on
# the site without writing them for Sphinx.
def _literal_indented_blocks(app, what, name, obj, options, lines):
    for i in range(2, len(lines)):
        prose = lines[i - 2]
        if (lines[i].startswith("    ") and not lines[i - 1].strip() and prose.strip()
                and not prose.startswith(" ") and not prose.rstrip().endswith("::")):
            lines[i - 2] = prose.rstrip() + " ::"


def _generate(app):
    docs_gen.generate_all(ROOT, DOCS / "_generated",
                          csharp_xml=os.environ.get("LWC_DOCS_CSHARP_XML"))


def setup(app):
    app.connect("builder-inited", _generate)
    app.connect("autodoc-process-docstring", _literal_indented_blocks)
