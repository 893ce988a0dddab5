// Docusaurus pages rendered to HTML as a Docusaurus 3 site builds them, for tests/mdx_oracle.py.
//
// One process serves a whole run: each line on stdin is a JSON object {"text": ..., "reader": ...},
// each line on stdout the answer, in order: {"html": ...} or {"error": ...}, with "includes" (the
// sources of the page's import/export-from statements) in both. Start-up (loading MDX and React)
// takes about a second; a page then takes milliseconds.
//
// Readers:
//   "docusaurus"  what @docusaurus/mdx-loader 3 does with a docs page under Docusaurus's defaults
//                 (markdown.format "mdx", mdx1Compat {comments, admonitions, headingIds} all true,
//                 admonitions on): gray-matter front matter, the three text preprocessors, then MDX 3
//                 with remark-frontmatter, remark-directive 3, the admonitions transform, <details>
//                 as Details, remark-gfm, @slorber/remark-comment (HTML comments allowed) and the
//                 unused-directives transform (a bare :name back to text).
//   "mdx"         the same without the mdx1Compat layer (a site that turns it off, or plain MDX 3 with
//                 remark-gfm, remark-directive and the admonitions transform): no comment syntax
//                 (`<!-- -->` is a build error), no `:::note Title` rewrite, no `{#id}` escaping.
//
// @docusaurus/mdx-loader itself is not installed (it pulls in webpack and the whole Docusaurus
// core); its remark plugins that change what a page shows are reimplemented below from their
// documented behaviour (packages/docusaurus-mdx-loader/src/remark/{admonitions,details,
// unusedDirectives}, preprocessor.ts and @docusaurus/utils markdownUtils.ts, Docusaurus 3.10):
//   admonitions        a container directive named note, tip, info, warning, danger, caution,
//                      secondary, success or important becomes <admonition type title>, its
//                      [label] the title (text only) or an <mdxAdmonitionTitle> first child;
//   headings           a heading's trailing `{#id}` is its id, taken out of its text;
//   details            a flow <details> element is renamed Details (the theme's component);
//   unusedDirectives   a text directive without label and attributes (`:name`) becomes the text
//                      `:name`; other unhandled directives stay and render as <div> (mdast-util-to-hast's
//                      unknown node);
//   preprocessors      ```mdx-code-block fences unwrapped; `{#` escaped on heading lines;
//                      `:::note Title` rewritten to `:::note[Title]` (the last two only with mdx1Compat).
// Plugins that change no visible text are left out: toc, emoji, head, mermaid,
// transformImage/transformLinks (URLs), contentTitle (metadata; removeContentTitle is off for docs).
//
// JSX: every capitalised component a page uses (and `admonition`, `mdxAdmonitionTitle`, `Details`)
// is stubbed to render its children in an element of its own (a <div>, a <span> when used inline, a
// <details> for Details), as the site's components wrap their children. Imports are removed before
// MDX resolves names (their bindings become stubs too) and reported in "includes": an import of a
// .md/.mdx file pulls another page's content in. React 19's renderToStaticMarkup writes the HTML.
import {createInterface} from 'node:readline'
import {compile, run} from '@mdx-js/mdx'
import matter from 'gray-matter'
import {createElement} from 'react'
import * as runtime from 'react/jsx-runtime'
import {renderToStaticMarkup} from 'react-dom/server'
import remarkComment from '@slorber/remark-comment'
import remarkDirective from 'remark-directive'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import {visit, SKIP} from 'unist-util-visit'

const ADMONITIONS = ['secondary', 'info', 'success', 'danger', 'note', 'tip', 'warning', 'important', 'caution']

// ---------------------------------------------------------------------------
// Docusaurus's text preprocessors (preprocessor.ts).

// ```mdx-code-block (three or four backticks, space-indented) around MDX: the fence lines are dropped.
function unwrapMdxCodeBlocks(text) {
  for (const ticks of ['```', '````']) {
    const fence = new RegExp(
      `(^|\\r?\\n)( *)${ticks} *mdx-code-block\\r?\\n([\\s\\S]*?)\\r?\\n *${ticks}(\\r?\\n|$)`, 'g')
    text = text.replace(fence, (_all, begin, _indent, body, end) => begin + body + end)
  }
  return text
}

// On an ATX heading line, the first `{#` becomes `\{#` (MDX would read it as an expression).
function escapeHeadingIds(text) {
  return text.replace(/(^|\n)#{1,6}(?!#).*/g, (line) => line.replace('{#', '\\{#').replace('\\\\{#', '\\{#'))
}

// `:::note Some title` becomes `:::note[Some title]` (also quoted or indented).
function admonitionTitlesToLabels(text) {
  const line = new RegExp(`^((?:> ?)*)( +|\\t+)?(:{3,}(?:${ADMONITIONS.join('|')})) +(.*)$`, 'gm')
  return text.replace(line, (_all, quote, indent, directive, title) =>
    `${quote ?? ''}${indent ?? ''}${directive}[${title}]`)
}

// ---------------------------------------------------------------------------
// Docusaurus's remark transforms that change what a page shows.

function admonitions() {
  return (tree) => {
    visit(tree, 'containerDirective', (node) => {
      if (!ADMONITIONS.includes(node.name)) return
      let children = node.children
      let label
      if (children[0]?.data?.directiveLabel === true) [label, ...children] = children
      const textTitle = label?.children?.length === 1 && label.children[0].type === 'text'
        ? label.children[0].value : undefined
      const title = node.attributes?.title ?? textTitle
      node.data = {hName: 'admonition', hProperties: {...(title ? {title} : {}), type: node.name}}
      node.children = children
      if (label && !textTitle) {
        node.children.unshift({type: 'mdxAdmonitionTitle', data: {hName: 'mdxAdmonitionTitle', hProperties: {}},
          children: label.children})
      }
    })
  }
}

// The headings plugin: a heading's trailing `{#custom-id}` is its id, not its text.
function headingIds() {
  return (tree) => {
    visit(tree, 'heading', (node) => {
      const last = node.children.at(-1)
      if (last?.type !== 'text') return
      const match = /\s*\{#((?:.(?!\{#|\}))*.)\}$/.exec(last.value)
      if (match) last.value = last.value.slice(0, match.index)
    })
  }
}

function details() {
  return (tree) => {
    visit(tree, 'mdxJsxFlowElement', (node) => {
      if (node.name === 'details') node.name = 'Details'
    })
  }
}

function unusedDirectives() {
  return (tree) => {
    visit(tree, ['containerDirective', 'leafDirective', 'textDirective'], (node, index, parent) => {
      if (node.data) return
      const simple = node.type === 'textDirective' && !Object.keys(node.attributes ?? {}).length
        && !node.children.length
      if (simple && parent && index !== undefined) {
        parent.children[index] = {type: 'text', value: `:${node.name}`, position: node.position}
        return SKIP
      }
    })
  }
}

// ---------------------------------------------------------------------------
// The harness's own: imports removed and reported, JSX names collected for the stubs.

function harness(page) {
  return () => (tree) => {
    visit(tree, 'mdxjsEsm', (node, index, parent) => {
      const body = node.data?.estree?.body ?? []
      const kept = []
      for (const statement of body) {
        if (statement.type === 'ImportDeclaration' || statement.source) {
          page.includes.push(String(statement.source.value))
          for (const specifier of statement.specifiers ?? []) {
            if (specifier.local?.name) page.names.add(specifier.local.name)
          }
        } else {
          kept.push(statement)
        }
      }
      if (kept.length === body.length) return
      if (kept.length === 0) {
        parent.children.splice(index, 1)
        return [SKIP, index]
      }
      node.data.estree.body = kept
    })
    visit(tree, ['mdxJsxFlowElement', 'mdxJsxTextElement'], (node) => {
      if (!node.name) return
      const root = node.name.split('.')[0]
      if (/^[A-Z]/.test(root) || node.name === 'Details') {
        page.names.add(root)
        if (node.type === 'mdxJsxTextElement') {
          node.attributes.push({type: 'mdxJsxAttribute', name: 'data-inline', value: 'true'})
        }
      }
    })
  }
}

// A component that renders its children in an element of its own.
function stub(name) {
  const component = ({children, ...props}) => {
    const tag = name === 'Details' ? 'details' : props['data-inline'] ? 'span' : 'div'
    return createElement(tag, {'data-component': name}, children)
  }
  // `<Tabs.Item>`: any member of a stub is a stub.
  return new Proxy(component, {get: (target, key) => (typeof key === 'string' && /^[A-Z]/.test(key)
    ? stub(`${name}.${key}`) : target[key])})
}

function Admonition({type, title, children}) {
  return createElement('div', {className: `theme-admonition theme-admonition-${type}`},
    createElement('div', {className: 'admonitionHeading'}, title ?? type),
    createElement('div', {className: 'admonitionContent'}, children))
}

function AdmonitionTitle({children}) {
  return createElement('span', {className: 'admonitionTitle'}, children)
}

async function render(text, reader) {
  const compat = reader === 'docusaurus'
  const page = {includes: [], names: new Set()}
  let content = text
  try {
    // Docusaurus parses front matter with gray-matter (passing options disables its cache) and trims.
    content = matter(text, {}).content.trim()
  } catch (error) {
    return {error: `front matter: ${firstLine(error)}`, includes: page.includes}
  }
  content = unwrapMdxCodeBlocks(content)
  if (compat) content = admonitionTitlesToLabels(escapeHeadingIds(content))
  let code
  try {
    code = String(await compile(content, {
      outputFormat: 'function-body',
      remarkPlugins: [remarkFrontmatter, remarkDirective, admonitions, headingIds, details, remarkGfm,
        ...(compat ? [remarkComment] : []), unusedDirectives, harness(page)],
    }))
  } catch (error) {
    return {error: `compile: ${describe(error)}`, includes: page.includes}
  }
  const components = {admonition: Admonition, mdxAdmonitionTitle: AdmonitionTitle}
  for (const name of page.names) components[name] = stub(name)
  try {
    const {default: Content} = await run(code, {...runtime, baseUrl: import.meta.url})
    return {html: renderToStaticMarkup(createElement(Content, {components})), includes: page.includes}
  } catch (error) {
    return {error: `render: ${firstLine(error)}`, includes: page.includes}
  }
}

function firstLine(error) {
  return String(error?.message ?? error).split('\n')[0]
}

function describe(error) {
  const place = error?.place?.start ?? error?.place
  return place?.line ? `${place.line}:${place.column}: ${firstLine(error)}` : firstLine(error)
}

const lines = createInterface({input: process.stdin, crlfDelay: Infinity})
for await (const line of lines) {
  if (!line.trim()) continue
  let answer
  try {
    const request = JSON.parse(line)
    answer = await render(request.text, request.reader ?? 'docusaurus')
  } catch (error) {
    answer = {error: `harness: ${firstLine(error)}`, includes: []}
  }
  process.stdout.write(JSON.stringify(answer) + '\n')
}
