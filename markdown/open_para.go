package markdown

import "github.com/yuin/goldmark/ast"

func newOpenPara(s *Stream, t *tailRender, p *ast.Paragraph, top int) openBlock { return nil }
