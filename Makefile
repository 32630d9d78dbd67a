# Entry points; the README's two commands are `bash scripts/setup.sh && make example|test`.
# The project venv that scripts/setup.sh makes, when there is one; else what is on PATH.
VENV = $(CURDIR)/.venv/bin
PYTHON ?= $(if $(wildcard $(VENV)/python),$(VENV)/python,python3)
PITH_TEX ?= $(if $(wildcard $(VENV)/pith-tex),$(VENV)/pith-tex,pith-tex)
LINT_IMPORTS ?= $(if $(wildcard $(VENV)/lint-imports),$(VENV)/lint-imports,lint-imports)
TEXFLAGS = -no-shell-escape -interaction=nonstopmode -halt-on-error
# pdflatex twice (the badge's link needs no second run, the paper's references do);
# on failure show the end of the log instead of TeX's whole chatter.
COMPILE = pdflatex $(TEXFLAGS) $(1) >/dev/null || { tail -n 30 $(basename $(1)).log; exit 1; }
PAPER = $(CURDIR)/examples/paper
MIRROR = $(CURDIR)/examples/mirror
LATEX = $(CURDIR)/latex

.PHONY: example test lint test-floors bench docs ctan clean

# The example is built the way an author builds: verify first, then compile.
# TEXINPUTS points at latex/ so the repository's pith.sty is used, not a copy.
example:
	cd $(PAPER) && TEXINPUTS=$(LATEX): $(PITH_TEX) fetch --offline --resolver $(MIRROR) -o pith-number.tex
	cd $(PAPER) && export TEXINPUTS=$(LATEX): && $(call COMPILE,main.tex) && $(call COMPILE,main.tex)
	pdfinfo -custom $(PAPER)/main.pdf | grep -i '^Pith'
	$(PITH_TEX) verify $(PAPER)/main.pdf
	@echo "built $(PAPER)/main.pdf"

test:
	$(PYTHON) -m pytest -n auto

# Types (mypy, strict), lint (ruff: pyflakes, bugbear, no blind except; tests and bench too) and the import
# floors of docs/development.md (import-linter); their settings are in pyproject.toml.
lint:
	$(PYTHON) -m mypy
	$(PYTHON) -m ruff check pyhelper tests bench
	$(LINT_IMPORTS)

# The hostile tests again, with every dependency at the lowest version pyproject allows.
test-floors:
	PYTHON=$(PYTHON) bash scripts/test-floors.sh

bench:
	$(PYTHON) bench/run.py

# The manual (latex/pith.pdf): its pictures are real output, the demo pages in
# latex/docs/ (each sets only public pith.sty options) compiled first, then the
# manual rerun until its references and table of contents settle.
docs:
	bash scripts/manual.sh latex

# The CTAN upload (pith.sty, the manual's source and PDF, a CTAN README, the licence):
# build/ctan/pith.zip.
ctan:
	bash scripts/ctan.sh build/ctan

clean:
	git clean -fdX
