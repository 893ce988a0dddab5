"""What issue 16's differentials share: the gate measured against a docs site's readers, the targets asserted
only once the gate accepts the site's ``"renderer"`` value.

A test class (:class:`SiteDifferentialCase`) names its renderer value
(``"mkdocs"``, ``"myst"``, ``"docusaurus"``, ``"portable"``) and its readers
(:class:`tests.differential.Reader`). :meth:`SiteDifferentialCase.measure`
loads the documents once through the gate's public API (with
``"renderer": value`` when :func:`tests.differential.renderer_supported` says
the gate accepts it, else without the key: today's gate, which the summary
says), judges them with :mod:`tests.differential` (issue 15's eligibility:
mentions allowed), prints the summary to stderr and, only with the key,
asserts the targets: no unsafe and no missed document, every page that a
reader says must be refused (a build error, an include) refused, and false
refusals at most :data:`MAX_FALSE_REFUSAL_SHARE` of the eligible pages the
measurement names (the realistic ones for generated documents).

Standard library only; importing it imports :mod:`tests.differential`
(conflict_gate and the reader definitions), not the renderers.
"""

from __future__ import annotations

import random
import sys
import unittest
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from tests import differential, reader_oracle, site_pages
from tests.support import REPO

__all__ = ["MAX_FALSE_REFUSAL_SHARE", "SiteDifferentialCase", "generated", "spec"]

MAX_FALSE_REFUSAL_SHARE = 0.01


def generated(
    seed: int, count: int, rules: reader_oracle.Rules, prefix: str = ""
) -> tuple[list[tuple[str, str]], dict[str, Counter[str]], set[str]]:
    """``count`` generated documents labelled with their placements (``realistic`` for realistic pages),
    the construct and placement counts, and the labels of the realistic pages."""
    documents = reader_oracle.generate_documents(seed, count, rules)
    groups = [["realistic"] if document.realistic else sorted(set(document.placements)) for document in documents]
    labelled = [
        (f"{prefix}seed {seed}, document {number} [{', '.join(names)}]", document.text)
        for number, (document, names) in enumerate(zip(documents, groups), 1)
    ]
    counts = {
        "construct": Counter(name for document in documents for name in document.constructs),
        "placement": Counter(name for names in groups for name in names),
    }
    realistic = {label for (label, _), document in zip(labelled, documents) if document.realistic}
    return labelled, counts, realistic


def spec(seed: int) -> list[tuple[str, str]] | None:
    """The CommonMark spec examples with a directive injected, as the other differentials inject them."""
    examples = reader_oracle.spec_examples(REPO)
    return None if examples is None else reader_oracle.spec_documents(examples, random.Random(seed))


class SiteDifferentialCase(unittest.TestCase):
    """The gate against one site's readers; subclasses set :attr:`renderer` and :attr:`readers` in setUpClass."""

    renderer: ClassVar[str]
    heading: ClassVar[str]
    readers: ClassVar[tuple[differential.Reader, ...]]
    extra: ClassVar[Mapping[str, object]]
    note: ClassVar[str]
    #: A reader under which the page does not build is left out while another builds it (``portable``).
    unbuilt_left_out: ClassVar[bool] = False

    @classmethod
    def detect_renderer(cls) -> None:
        """Set :attr:`extra` and :attr:`note` from whether the gate accepts ``"renderer": cls.renderer``."""
        supported, why = differential.renderer_supported(cls.renderer)
        cls.extra = {"renderer": cls.renderer} if supported else {}
        cls.note = (
            f'manifests say "renderer": "{cls.renderer}"; targets asserted'
            if supported
            else f'the gate does not accept "renderer": "{cls.renderer}" yet ({why.splitlines()[0]}): '
            "measured as it is today, without the key; targets reported, not asserted"
        )

    @property
    def supported(self) -> bool:
        return bool(self.extra)

    def measure(
        self,
        title: str,
        documents: Sequence[tuple[str, str]],
        counts: Mapping[str, Counter[str]],
        per_group: str | None = None,
        realistic: Callable[[str], bool] | None = None,
        notes: Sequence[str] = (),
        assert_false_refusals: bool = True,
    ) -> list[differential.Judged]:
        """Judge ``documents`` (``(label, text)``), print the summary, assert the targets when supported.

        ``realistic`` picks the labels whose eligible pages the false-refusal
        target is computed over (all eligible pages when None). Without
        ``assert_false_refusals`` (the spec examples: edge cases, not realistic
        pages, where the site targets ask only for no unsafe and no missed
        document) the share is reported, not asserted.
        """
        outcomes = differential.gate_outcomes([text for _, text in documents], self.extra)
        judged = differential.judge(
            documents, self.readers, outcomes, differential.mentions_allowed, unbuilt_left_out=self.unbuilt_left_out
        )
        names = [reader.name for reader in self.readers]
        eligible = [
            item for item in judged if item.expected is not None and (realistic is None or realistic(item.label))
        ]
        false_refusals = sum(item.false_refusal for item in eligible)
        target = (
            f"false refusals among the eligible realistic pages: {false_refusals} of {len(eligible)}"
            if realistic is not None
            else ""
        )
        documents_line = (
            f"documents unsafe for some reader: {sum(bool(item.unsafe) for item in judged)}, missed: "
            f"{sum(bool(item.missed) for item in judged)}, not refused although they must be: "
            f"{sum(bool(item.unrefused) for item in judged)}"
        )
        report = differential.summary(
            title,
            judged,
            counts,
            names,
            MAX_FALSE_REFUSAL_SHARE,
            heading=self.heading,
            per_group=per_group,
            notes=[self.note, *notes, documents_line, *([target] if target else [])],
            eligible_means="one directive as a top-level paragraph line, other shaped text only mentions, "
            f"nothing to refuse, for every reader ({', '.join(names)})",
        )
        print(report, file=sys.stderr)
        if self.supported:
            self.assertEqual([item.label for item in judged if item.unsafe], [], "unsafe documents, see stderr")
            self.assertEqual([item.label for item in judged if item.missed], [], "missed directives, see stderr")
            self.assertEqual(
                [item.label for item in judged if item.unrefused], [], "pages that must be refused were not, see stderr"
            )
            if assert_false_refusals:
                self.assertLessEqual(
                    false_refusals, MAX_FALSE_REFUSAL_SHARE * len(eligible), "too many false refusals, see stderr"
                )
        return judged


class FlavourTests:
    """The tests every site's differential runs, mixed into a :class:`SiteDifferentialCase` subclass
    that sets :attr:`flavour` (a key of :data:`tests.site_pages.SITE_RULES`), :attr:`docs`,
    :attr:`default_docs` and :attr:`seed`. Not a TestCase itself, so discovery never runs it alone."""

    flavour: ClassVar[str]
    docs: ClassVar[int]
    default_docs: ClassVar[int]
    seed: ClassVar[int]
    #: Whether the spec examples' false-refusal share is asserted (reported otherwise).
    spec_false_refusals: ClassVar[bool] = True

    def test_generated_documents(self) -> None:
        case = self._case()
        documents, counts, realistic = generated(self.seed, self.docs, site_pages.SITE_RULES[self.flavour])
        case.measure(
            f"generated, seed {self.seed}", documents, counts, per_group="placement", realistic=realistic.__contains__
        )

    def test_container_pages(self) -> None:
        pages = site_pages.container_pages(self.flavour)
        counts = {
            "container": Counter(differential.group_names(page.label).pop() for page in pages),
            "variant": Counter(page.label.partition(": ")[2].rpartition(" [")[0] for page in pages),
        }
        self._case().measure("D at the top, O inside and around every container", pages, counts, per_group="container")

    def test_generator_covers_every_placement(self) -> None:
        case = self._case()
        rules = site_pages.SITE_RULES[self.flavour]
        documents = reader_oracle.generate_documents(self.seed, max(self.docs, self.default_docs), rules)
        placements = Counter(name for document in documents for name in document.placements)
        constructs = Counter(name for document in documents for name in document.constructs)
        case.assertEqual([name for name in rules.placements if not placements[name]], [])
        case.assertEqual([name for name in rules.constructs if not constructs[name]], [])

    def test_spec_examples(self) -> None:
        case = self._case()
        documents = spec(self.seed)
        if documents is None:
            case.skipTest("no CommonMark spec examples: set CONFLICT_GATE_SPEC_JSON (see reference/dev/testing.md)")
        counts = {"injection": Counter(label.partition(": ")[2] for label, _ in documents)}
        case.measure("CommonMark spec examples", documents, counts, assert_false_refusals=self.spec_false_refusals)

    def _case(self) -> SiteDifferentialCase:
        assert isinstance(self, SiteDifferentialCase), "FlavourTests is mixed into a SiteDifferentialCase"
        return self
