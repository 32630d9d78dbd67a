# Entry points; the README's two commands are `bash scripts/setup.sh && make example|test`.
PYTHON ?= python3
PITH_TEX ?= pith-tex
TEXFLAGS = -no-shell-escape -interaction=nonstopmode -halt-on-error
# pdflatex twice (the badge's link needs no second run, the paper's references do);
# on failure show the end of the log instead of TeX's whole chatter.
COMPILE = pdflatex $(TEXFLAGS) $(1) >/dev/null || { tail -n 30 $(basename $(1)).log; exit 1; }
PAPER = $(CURDIR)/examples/paper
MIRROR = $(CURDIR)/examples/mirror
LATEX = $(CURDIR)/latex

.PHONY: example test bench docs clean

# The example is built the way an author builds: verify first, then compile.
# TEXINPUTS points at latex/ so the repository's pith.sty is used, not a copy.
example:
	cd $(PAPER) && $(PITH_TEX) fetch --offline --resolver $(MIRROR) -o pith-number.tex
	cd $(PAPER) && export TEXINPUTS=$(LATEX): && $(call COMPILE,main.tex) && $(call COMPILE,main.tex)
	pdfinfo -custom $(PAPER)/main.pdf | grep -i '^Pith'
	@echo "built $(PAPER)/main.pdf"

test:
	$(PYTHON) -m pytest -n auto

bench:
	$(PYTHON) bench/run.py

docs:
	cd latex && $(call COMPILE,pith.tex) && $(call COMPILE,pith.tex)
	@echo "built latex/pith.pdf"

clean:
	git clean -fdX
