package demoapp

// The demo app's XML API, for the built-in XML/XPath steps:
//
//	GET  /api/xml/users          <users total="3"><user id="1" active="true">...</user>...</users>
//	GET  /api/xml/users/{id}     <user id="1" active="true"><name>...</name>...</user>, or 404 <error>
//	POST /api/xml/echo           an XML body echoed back inside <echo method="POST"> (400 when not XML)

import (
	"bytes"
	"encoding/xml"
	"io"
	"net/http"
	"regexp"
	"strconv"
)

type xmlAddress struct {
	Street  string `xml:"street"`
	City    string `xml:"city"`
	Country string `xml:"country"`
}

type xmlUser struct {
	XMLName xml.Name    `xml:"user"`
	ID      int         `xml:"id,attr"`
	Active  bool        `xml:"active,attr"`
	Name    string      `xml:"name"`
	Email   string      `xml:"email"`
	Roles   []string    `xml:"roles>role"`
	Address *xmlAddress `xml:"address,omitempty"`
	Created string      `xml:"createdAt"`
}

type xmlUsers struct {
	XMLName xml.Name  `xml:"users"`
	Total   int       `xml:"total,attr"`
	Users   []xmlUser `xml:"user"`
}

func xmlUserOf(u user) xmlUser {
	x := xmlUser{ID: u.ID, Active: u.Active, Name: u.Name, Email: u.Email, Roles: u.Roles, Created: u.CreatedAt}
	if u.Address != nil {
		x.Address = &xmlAddress{u.Address.Street, u.Address.City, u.Address.Country}
	}
	return x
}

func writeXML(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	_ = enc.Encode(v)
	_, _ = io.WriteString(w, "\n")
}

// xmlDeclRE is an XML declaration, which cannot be nested in <echo>.
var xmlDeclRE = regexp.MustCompile(`^\s*<\?xml[^>]*\?>`)

type xmlError struct {
	XMLName xml.Name `xml:"error"`
	Message string   `xml:",chardata"`
}

func (a *app) xmlUsers(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	out := xmlUsers{}
	for _, u := range a.users.list {
		out.Users = append(out.Users, xmlUserOf(u))
	}
	a.mu.Unlock()
	out.Total = len(out.Users)
	writeXML(w, http.StatusOK, out)
}

func (a *app) xmlUser(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		writeXML(w, http.StatusBadRequest, xmlError{Message: "id must be a number"})
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, u := range a.users.list {
		if u.ID == id {
			writeXML(w, http.StatusOK, xmlUserOf(u))
			return
		}
	}
	writeXML(w, http.StatusNotFound, xmlError{Message: "no user " + strconv.Itoa(id)})
}

// xmlEcho answers an XML body inside <echo method="..." contentType="...">.
func xmlEcho(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		writeXML(w, http.StatusBadRequest, xmlError{Message: err.Error()})
		return
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			writeXML(w, http.StatusBadRequest, xmlError{Message: "the body is not XML: " + err.Error()})
			return
		}
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<echo method="`)
	_ = xml.EscapeText(&b, []byte(r.Method))
	b.WriteString(`" contentType="`)
	_ = xml.EscapeText(&b, []byte(r.Header.Get("Content-Type")))
	b.WriteString(`">`)
	b.Write(bytes.TrimSpace(xmlDeclRE.ReplaceAll(body, nil)))
	b.WriteString("</echo>\n")
	_, _ = w.Write(b.Bytes())
}
