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

# pith.sty and its LaTeXML binding pith.sty.ltxml are generated from their literate source
# latex/pith.dtx by docstrip (latex/pith.ins), never edited or committed; whatever reads
# them depends on them.
STY = latex/pith.sty latex/pith.sty.ltxml
$(STY) &: latex/pith.dtx latex/pith.ins
	cd latex && pdftex -interaction=batchmode pith.ins >/dev/null || { tail -n 20 pith.log; exit 1; }

# The example is built the way an author builds: verify first, then compile.
# TEXINPUTS points at latex/ so the repository's pith.sty is used, not a copy.
example: $(STY)
	cd $(PAPER) && TEXINPUTS=$(LATEX): $(PITH_TEX) fetch --offline --resolver $(MIRROR) -o pith-number.tex
	cd $(PAPER) && export TEXINPUTS=$(LATEX): && $(call COMPILE,main.tex) && $(call COMPILE,main.tex)
	pdfinfo -custom $(PAPER)/main.pdf | grep -i '^Pith'
	$(PITH_TEX) verify $(PAPER)/main.pdf
	@echo "built $(PAPER)/main.pdf"

test: $(STY)
	$(PYTHON) -m pytest -n auto

# Types (mypy, strict), lint (ruff: pyflakes, bugbear, no blind except; tests and bench too) and the import
# floors of docs/development.md (import-linter); their settings are in pyproject.toml.
lint:
	$(PYTHON) -m mypy
	$(PYTHON) -m ruff check pyhelper tests bench
	$(LINT_IMPORTS)

# The hostile tests again, with every dependency at the lowest version pyproject allows.
test-floors: $(STY)
	PYTHON=$(PYTHON) bash scripts/test-floors.sh

bench: $(STY)
	$(PYTHON) bench/run.py

# The manual and the documented implementation (latex/pith.pdf), typeset from pith.dtx by
# l3build (latex/build.lua): the demo pages in latex/docs/ (each sets only public pith.sty
# options), the manual's pictures, are compiled first; the manual is rerun until it settles.
docs:
	cd latex && l3build doc

# The CTAN upload (pith.dtx, pith.ins, the manual and its pictures, a
# CTAN README, the licence), made by l3build after its checks: build/ctan/pith.zip.
ctan:
	cd latex && l3build ctan
	mkdir -p build/ctan && mv latex/pith.zip build/ctan/pith.zip

clean:
	git clean -fdX
