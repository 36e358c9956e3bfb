"""The page of ``GET /``: paste text or drop a PDF, read the tagged paper and its summary."""

from __future__ import annotations

from sciner.formats.html import page

# The page: paste text or drop a PDF; one POST /v1/paper brings back the tagged paper (marked up
# as `sciner show` marks it, in labels.py's colours), its summary and the JSONL to download.
PAGE_BODY = """
<p class="subtitle">Paste text (one paragraph per line) or drop a PDF; entities are tagged on this machine.</p>
<textarea id="text" placeholder="We fine-tune BERT on SQuAD v1.1 with a learning rate of 5e-5 and report F1."></textarea>
<div id="drop">drop a PDF (or a .txt) here, or <input type="file" id="file" accept="application/pdf,text/plain">
<label><input type="checkbox" id="tables"> read tables and captions</label></div>
<button id="go">Tag</button> <span id="status"></span> <a id="download" hidden download="paper.jsonl">download JSONL</a>
<div id="summary"></div><div id="paper"></div>
<script>
const $ = id => document.getElementById(id);
function esc(s){return String(s).replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#x27;"}[c]));}
function mark(text, s){  // as sciner.formats.html.mark writes it
  const cls = "ent ent-" + s.label.replace(/[^A-Za-z0-9_-]/g, "_");
  const score = s.score === undefined ? "" : '<span class="score">' + s.score.toFixed(2) + "</span>";
  const title = s.score === undefined ? s.label : s.label + " (score " + s.score.toFixed(2) + ")";
  return '<mark class="' + cls + '" data-type="' + esc(s.label) + '" title="' + esc(title) + '">' + esc(text)
         + '<span class="ent-label">' + esc(s.label) + "</span>" + score + "</mark>";
}
function where(p){ return p ? (p.page ? "p. " + p.page : "") + (p.table ? " " + p.table : "") : ""; }
function render(paragraphs){
  return paragraphs.map((p, j) => {
    const out = []; let i = 0;
    for (const s of p.spans){
      if (s.start < i) continue;
      if (s.start > i) out.push(esc(p.tokens.slice(i, s.start).join(" ")));
      out.push(mark(p.tokens.slice(s.start, s.end).join(" "), s));
      i = s.end;
    }
    if (i < p.tokens.length) out.push(esc(p.tokens.slice(i).join(" ")));
    return '<div class="paragraph" id="p' + j + '"><div class="para-head">¶ ' + (j + 1)
           + (p.page ? " · page " + p.page : "") + "</div>" + out.join(" ") + "</div>";
  }).join("");
}
function table(title, heads, rows){
  return "<h2>" + title + " (" + rows.length + ")</h2><table><tr>" + heads.map(h => "<th>" + h + "</th>").join("")
         + "</tr>" + rows.map(r => "<tr>" + r.map(c => "<td>" + c + "</td>").join("") + "</tr>").join("") + "</table>";
}
function link(paragraphs, j){ return '<a href="#p' + j + '">¶' + (j + 1) + "</a> " + esc(where(paragraphs[j])); }
function summary(s, paragraphs){
  const name = v => v === null ? "" : esc(v);
  return table("Results", ["task", "dataset", "metric", "value", "model", "where"], s.results.map(r =>
           [name(r.task), name(r.dataset), name(r.metric), esc(r.value), name(r.model), link(paragraphs, r.paragraph)]))
       + table("Values", ["type", "value", "of", "where"], s.values.map(v =>
           [esc(v.type), esc(v.value), name(v.of), link(paragraphs, v.paragraph)]))
       + table("Entities", ["type", "name", "mentions", "spellings"], s.entities.map(e =>
           [esc(e.type), esc(e.name), e.mentions, esc(e.surface.join(" | "))]));
}
async function send(body, type){
  $("status").textContent = "tagging..."; $("download").hidden = true;
  const url = "/v1/paper" + (type === "application/pdf" && $("tables").checked ? "?include=tables,captions" : "");
  const answer = await fetch(url, {method: "POST", headers: {"Content-Type": type}, body});
  const paper = await answer.json();
  if (!answer.ok){ $("status").textContent = paper.error.message; return; }
  $("paper").innerHTML = "<h2>Tagged text</h2>" + render(paper.paragraphs);
  $("summary").innerHTML = summary(paper.summary, paper.paragraphs);
  $("download").href = URL.createObjectURL(new Blob([paper.jsonl], {type: "application/jsonl"}));
  $("download").hidden = false;
  $("status").textContent = paper.paragraphs.length + " paragraphs";
}
$("go").onclick = () => send(JSON.stringify({text: $("text").value}), "application/json");
const kind = f => /[.]pdf$/i.test(f.name) || f.type === "application/pdf" ? "application/pdf" : "text/plain";
$("file").onchange = e => e.target.files[0] && send(e.target.files[0], kind(e.target.files[0]));
$("drop").ondragover = e => e.preventDefault();
$("drop").ondrop = e => { e.preventDefault(); const f = e.dataTransfer.files[0]; if (f) send(f, kind(f)); };
const q = new URLSearchParams(location.search).get("text");
if (q){ $("text").value = q; $("go").onclick(); }
</script>
"""
PAGE_CSS = """
textarea { width: 100%; height: 9rem; font: inherit; }
#drop { border: 2px dashed #aaa; padding: 1rem; margin: .5rem 0; text-align: center; color: #666; }
#status { color: #666; } #download { margin-left: 1em; }
"""


PAGE = page("sciner", PAGE_BODY, extra_css=PAGE_CSS)
