"""One self-contained HTML file per replay document (:mod:`actionable.viz.document`).

The document travels inline as JSON in ``<script type="application/json" id="replay-data">``
(``<``, ``>``, ``&`` and U+2028/9 escaped, so no task text can close the element); one small
inline script draws it with ``textContent`` and DOM/SVG nodes only (never ``innerHTML``), so a
task or object name that contains ``<script>`` is shown as text and never runs. A
Content-Security-Policy (``default-src 'none'``, the one script allowed by its SHA-256 hash) keeps
the page from loading or sending anything: it works from ``file://`` with no network.

Controls: a slider over the steps, the arrow keys (left/right, Home/End), and Prev/Next buttons;
``#step=N`` in the URL opens step N (1-based).
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{padding:10px 16px;background:#263238;color:#fff}header h1{font-size:18px;margin:0}
header .meta{opacity:.8;font-size:12px}main{display:flex;flex-wrap:wrap;gap:12px;padding:12px}
section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px;flex:1 1 420px;min-width:320px}
h2{font-size:14px;margin:0 0 6px}#controls{display:flex;gap:8px;align-items:center;padding:8px 16px;background:#eceff1}
#slider{flex:1}ol{margin:0;padding-left:28px}li.cur{background:#fff3c4}li.rep{color:#8a6d00}li.rep::after{content:"  (repair)";font-size:11px}
li.fail{color:#b00020;font-weight:bold}li.fut{color:#999}.tag{font-size:11px;padding:0 4px;border-radius:3px;background:#eee;margin-left:4px}
.ok{color:#1b5e20}.bad{color:#b00020}.unk{color:#777}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;padding:2px 4px;text-align:left;font-size:13px}
svg text{font-size:9px;fill:#333}#follow{flex-basis:100%}#map svg{max-height:420px}#timeline text{font-size:11px}#summary span{margin-right:12px}
"""

_JS = r"""
(function(){
'use strict';
var D=JSON.parse(document.getElementById('replay-data').textContent);
var NS='http://www.w3.org/2000/svg';
function el(tag,attrs,text,parent){var e=document.createElement(tag);if(attrs)for(var k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined&&text!==null)e.textContent=String(text);if(parent)parent.appendChild(e);return e;}
function sv(tag,attrs,parent,text){var e=document.createElementNS(NS,tag);for(var k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=String(text);if(parent)parent.appendChild(e);return e;}
function $(id){return document.getElementById(id);}
document.title='actionable replay: '+D.title;
$('title').textContent=D.title;
$('meta').textContent=D.kind+' \u00b7 world '+(D.world||'-')+' \u00b7 scene '+(D.scene||'-');
(D.summary||[]).forEach(function(s){el('span',null,s,$('summary'));});
var follow=D.kind==='follow';
var N=follow?(D.timeline||[]).length:(D.steps||[]).length;
var slider=$('slider');slider.min=follow?0:0;slider.max=Math.max(0,N-1);slider.value=0;
// ---------------------------------------------------------------- the map
var M=D.map,pos={},agent=null,pathLine=null,roomRect={},svg=null;
if(M&&(M.rooms||[]).length){
  svg=sv('svg',{viewBox:'-4 -4 '+(M.width+8)+' '+(M.height+8),width:'100%',id:'map-svg'},$('map'));
  M.rooms.forEach(function(r){roomRect[r.id]=sv('rect',{x:r.x,y:r.y,width:r.w,height:r.h,fill:'#f1f8e9',stroke:'#7cb342','data-room':r.id},svg);
    sv('text',{x:r.x+4,y:r.y+11,'font-weight':'bold'},svg,r.name);pos[r.id]=[r.x+r.w/2,r.y+r.h/2];});
  (M.doors||[]).forEach(function(d){sv('rect',{x:d.x-4,y:d.y-4,width:8,height:8,fill:'#8d6e63'},svg);});
  (M.roads||[]).forEach(function(r){sv('polyline',{points:r.pts.map(function(p){return p.join(',');}).join(' '),fill:'none',stroke:'#90a4ae','stroke-width':2},svg);});
  (M.lights||[]).forEach(function(l){sv('circle',{cx:l.x,cy:l.y,r:3,fill:'#fbc02d'},svg);});
  (M.items||[]).forEach(function(it){pos[it.id]=[it.x,it.y];});
  (M.items||[]).forEach(function(it){var p=it.parent&&pos[it.parent];
    if(p)sv('line',{x1:it.x,y1:it.y,x2:p[0],y2:p[1],stroke:'#90caf9','stroke-width':1},svg);
    var c=sv('circle',{cx:it.x,cy:it.y,r:3,fill:'#1e88e5'},svg);sv('title',{},c,it.name+(it.parent?' '+(it.rel||'').toLowerCase()+' '+it.parent:''));
    sv('text',{x:it.x+4,y:it.y+3},svg,it.name);});
  pathLine=sv('polyline',{points:'',fill:'none',stroke:'#e53935','stroke-width':1.5,'stroke-dasharray':'4 2',id:'path'},svg);
  agent=sv('circle',{r:6,fill:'#e53935',stroke:'#fff',id:'agent'},svg);
} else { el('p',{'class':'unk'},'no map for this world or record',$('map')); }
// ---------------------------------------------------------------- step list (plan / verify)
var items=[];
if(!follow){
  (D.steps||[]).forEach(function(s,i){var li=el('li',null,s.text,$('steps'));el('span',{'class':'tag'},s.script,li);
    if(s.repair)li.classList.add('rep');if(!s.executed)li.classList.add('fail');li.addEventListener('click',function(){go(i);});items.push(li);});
  var gt=$('goals');
  if(!(D.goals||[]).length)el('p',{'class':'unk'},'no goal conditions recorded',gt);
  else{var tb=el('table',null,null,gt);var h=el('tr',null,null,tb);['condition','status','became true at'].forEach(function(x){el('th',null,x,h);});
    D.goals.forEach(function(g,k){var tr=el('tr',{'data-goal':k},null,tb);el('td',null,g.text,tr);
      el('td',{'class':g.met===true?'ok':(g.met===false?'bad':'unk')},g.met===true?'met':(g.met===false?'not met':'checked'),tr);
      el('td',{'class':'goal-step'},g.step?('step '+g.step):'-',tr);});}
}
if(D.kind==='verify'){
  var v=$('verify');v.hidden=false;
  [['before',D.before],['after',D.after]].forEach(function(p){var d=el('div',{style:'display:inline-block;vertical-align:top;width:48%'},null,v);
    el('h2',null,'plan '+p[0]+' ('+p[1].length+' steps)',d);var ol=el('ol',{id:'plan-'+p[0]},null,d);p[1].forEach(function(x){el('li',null,x,ol);});});
  el('h2',null,'critiques',v);var ct=el('table',{id:'critiques'},null,v);var hr=el('tr',null,null,ct);['round','critique','step','action','reason'].forEach(function(x){el('th',null,x,hr);});
  if(!(D.critiques||[]).length)el('p',{'class':'unk'},'the judge raised no critique',v);
  D.critiques.forEach(function(c){var tr=el('tr',null,null,ct);el('td',null,c.round,tr);el('td',{'class':'bad'},'#'+c.kind,tr);el('td',null,c.step==null?'end':c.step,tr);el('td',null,c.action||'',tr);el('td',null,c.reason,tr);});
}
// ---------------------------------------------------------------- follow timeline
var cursor=null,TL=D.timeline||[],ins=D.instructions||[];
if(follow){
  $('plan-panel').hidden=true;var f=$('follow');f.hidden=false;$('held-h').textContent='rooms visited so far';
  var L=Math.max(1,D.length||TL.length),W=800,rowH=20,H=ins.length*rowH+20;
  var ts=sv('svg',{viewBox:'0 0 '+(W+10)+' '+H,width:'100%',id:'timeline'},$('tl'));
  var col={success:'#43a047',failure:'#e53935',cancelled:'#9e9e9e',open:'#fb8c00'};
  ins.forEach(function(x,k){var y=k*rowH+4;sv('rect',{x:0,y:y,width:W,height:rowH-4,fill:'#f5f5f5'},ts);
    x.spans.forEach(function(s){var e=(s.end==null?L:s.end);sv('rect',{x:s.start/L*W,y:y,width:Math.max(1.5,(e-s.start)/L*W),height:rowH-4,fill:col[s.outcome]||'#fb8c00','data-outcome':s.outcome},ts);});
    sv('text',{x:3,y:y+12},ts,(k+1)+'. '+x.text);});
  cursor=sv('line',{x1:0,x2:0,y1:0,y2:H,stroke:'#000','stroke-width':1},ts);
  var it=el('table',{id:'instr'},null,$('beliefs'));var hh=el('tr',null,null,it);['#','instruction','query','P(q)','truth','status'].forEach(function(x){el('th',null,x,hh);});
  ins.forEach(function(x,k){var tr=el('tr',null,null,it);el('td',null,k+1,tr);el('td',null,x.text,tr);el('td',null,x.query||'-',tr);
    el('td',{id:'p-'+k},'',tr);el('td',{id:'truth-'+k},'',tr);el('td',{id:'st-'+k},'',tr);});
}
function status(x,t){for(var i=0;i<x.spans.length;i++){var s=x.spans[i],e=s.end==null?1e9:s.end;if(t>=s.start&&t<e)return 'active (condition met)';if(s.outcome==='success'&&t===e)return 'done';if(t===e)return s.outcome==='failure'?'missed':s.outcome;}return 'idle';}
// ---------------------------------------------------------------- one step
var cur=-1;
function list(id,xs,empty){var u=$(id);u.textContent='';if(!xs||!xs.length){el('li',{'class':'unk'},empty,u);return;}xs.forEach(function(x){el('li',null,x,u);});}
function go(i){
  if(N===0){$('step-label').textContent='no steps';return;}
  i=Math.max(0,Math.min(N-1,i|0));cur=i;slider.value=i;
  if(!follow){
    var s=D.steps[i];$('step-label').textContent='step '+(i+1)+' of '+N;
    items.forEach(function(li,k){li.classList.toggle('cur',k===i);li.classList.toggle('fut',k>i);});
    $('step-text').textContent=s.text+(s.repair?'  (repair step)':'');
    $('room').textContent=s.room?((M&&M.rooms.filter(function(r){return r.id===s.room;}).map(function(r){return r.name;})[0])||s.room):'-';
    list('held',s.held,'nothing');list('changes',s.changes,s.executed?'no state change':'the step did not run');
    var fe=$('failure');fe.textContent='';
    if(!s.executed){el('p',{'class':'bad'},'failed: '+(s.error||'the step did not execute'),fe);if(s.unmet.length){var u=el('ul',{id:'unmet'},null,fe);s.unmet.forEach(function(x){el('li',null,'unmet: '+x,u);});}}
    document.querySelectorAll('[data-goal]').forEach(function(tr){var g=D.goals[+tr.getAttribute('data-goal')];tr.style.opacity=(g.step&&g.step>i+1)?'0.5':'1';});
    if(agent){var pts=[],pr=null;for(var k=0;k<=i;k++){var sk=D.steps[k],p=null;
        if(sk.at&&pos[sk.at])p=pos[sk.at];else if(sk.room&&sk.room!==pr&&pos[sk.room])p=pos[sk.room];
        pr=sk.room||pr;if(p)pts.push(p);}  // a step without a place of its own leaves the agent where it was
      pathLine.setAttribute('points',pts.map(function(p){return p.join(',');}).join(' '));
      var last=pts.length?pts[pts.length-1]:[-50,-50];agent.setAttribute('cx',last[0]);agent.setAttribute('cy',last[1]);
      for(var r in roomRect)roomRect[r].setAttribute('fill',r===s.room?'#fff9c4':'#f1f8e9');}
  } else {
    var r=TL[i];$('step-label').textContent='t = '+r.t+' (step '+(i+1)+' of '+N+')';
    $('step-text').textContent=r.skill+(r.ok?'':'  (FAILED: '+(r.error||'')+')');
    $('room').textContent=r.room||'-';
    $('values').textContent=(r.v_t==null?'v_T -':'v_T (exploitation) '+r.v_t.toFixed(2))+' \u00b7 '+(r.v_r==null?'v_R -':'v_R (exploration) '+r.v_r.toFixed(3));
    list('changes',r.changed,'no house change');
    var seen=[];for(var k=0;k<=i;k++){if(seen.indexOf(TL[k].room)<0)seen.push(TL[k].room);}list('held',seen,'-');
    ins.forEach(function(x,k){var p=r.p[k],tr=r.truth[k];$('p-'+k).textContent=p==null?'-':p.toFixed(2);
      var te=$('truth-'+k);te.textContent=tr==null?'-':(tr?'true':'false');
      te.className=(tr==null||p==null)?'unk':(((p>0.5)===tr)?'ok':'bad');
      $('st-'+k).textContent=(r.done.indexOf(k)>=0)?'done':status(x,r.t);});
    if(cursor){var x=(r.t+0.5)/Math.max(1,D.length||TL.length)*800;cursor.setAttribute('x1',x);cursor.setAttribute('x2',x);}
    if(agent){var p=pos[r.room];if(p){agent.setAttribute('cx',p[0]);agent.setAttribute('cy',p[1]);}for(var q in roomRect)roomRect[q].setAttribute('fill',q===r.room?'#fff9c4':'#f1f8e9');}
  }
  document.body.setAttribute('data-step',String(i+1));
}
slider.addEventListener('input',function(){go(+slider.value);});
$('prev').addEventListener('click',function(){go(cur-1);});$('next').addEventListener('click',function(){go(cur+1);});
document.addEventListener('keydown',function(e){if(e.key==='ArrowRight'){go(cur+1);e.preventDefault();}else if(e.key==='ArrowLeft'){go(cur-1);e.preventDefault();}
  else if(e.key==='Home'){go(0);e.preventDefault();}else if(e.key==='End'){go(N-1);e.preventDefault();}});
var m=/step=(\d+)/.exec(location.hash);go(m?(+m[1])-1:0);
window.__replay={go:go,n:N,kind:D.kind};
})();
"""

_BODY = """<header><h1 id="title"></h1><div class="meta" id="meta"></div><div id="summary" class="meta"></div></header>
<div id="controls"><button id="prev" type="button">&#9664; prev</button><input id="slider" type="range" step="1" aria-label="step">
<button id="next" type="button">next &#9654;</button><b id="step-label"></b></div>
<main>
<section id="map-panel"><h2>map</h2><div id="map"></div></section>
<section id="now"><h2>this step</h2><p id="step-text"></p><p>room: <b id="room"></b> <span id="values"></span></p>
<h2 id="held-h">held</h2><ul id="held"></ul><h2>state changes</h2><ul id="changes"></ul><div id="failure"></div></section>
<section id="plan-panel"><h2>steps</h2><ol id="steps"></ol><h2>goal conditions</h2><div id="goals"></div></section>
<section id="verify" hidden></section>
<section id="follow" hidden><h2>instructions over time (orange active, green done, red missed, grey cancelled)</h2><div id="tl"></div>
<h2>belief P(q) against the truth</h2><div id="beliefs"></div></section>
</main>"""


def _inline_json(doc: dict) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>``, ``&`` or line separators."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render_html(doc: dict) -> str:
    """The page for replay document ``doc`` (one string, self-contained).

    Raises:
        ValueError: ``doc`` holds NaN/infinity (not JSON)."""
    h = base64.b64encode(hashlib.sha256(_JS.encode("utf-8")).digest()).decode("ascii")
    csp = f"default-src 'none'; script-src 'sha256-{h}'; style-src 'unsafe-inline'; img-src data:"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">"
            "<meta name=\"viewport\" content=\"width=device-width\"><title>actionable replay</title>"
            f"<style>{_CSS}</style></head><body>{_BODY}"
            f"<script type=\"application/json\" id=\"replay-data\">{_inline_json(doc)}</script>"
            f"<script>{_JS}</script></body></html>\n")


def write_html(doc: dict, path: str | Path) -> Path:
    """Write ``doc``'s page to ``path`` (UTF-8); returns the path.

    Raises:
        InputError: the file cannot be written (the message names it)."""
    from actionable.core.errors import InputError

    p = Path(path)
    try:
        p.write_text(render_html(doc), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--html {p}: cannot write the file ({exc.strerror or exc})") from None
    return p


__all__ = ["render_html", "write_html"]
