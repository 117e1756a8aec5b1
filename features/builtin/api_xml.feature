@api @builtin
Feature: Built-in steps: XML responses
  The demo app's XML API (demoapp/xml.go). XPath picks values out of a
  response; a whole response is matched against a document whose texts and
  attribute values may be markers.

  Scenario: XPath
    When I send a GET request to "/api/xml/users"
    Then I expect the response header "Content-Type" to contain "xml"
    And I expect the response XPath "count(/users/user)" to equal 3
    And I expect the response XPath "/users/@total" to equal "3"
    And I expect the response XPath "/users/user/name" to contain "Grace Hopper"
    And I expect the response XPath "/users/user[@active='false']/name" to equal "Alan Turing"
    And I expect the response XPath "/users/user/name" not to contain "Nobody"
    And I expect the response XPath "/users/user[1]/roles/role" to have length 2
    And I expect the response XPath "/users/user[3]/address" not to exist
    And I expect the response XPath "/users/user[1]/address/city" to exist
    And I remember the response XPath "/users/user[2]/@id" as "graceId"
    When I send a GET request to "/api/xml/users/$graceId"
    Then I expect the response XPath "/user/email" to equal "grace@example.com"

  Scenario: Matching a document
    When I send a GET request to "/api/xml/users/1"
    Then I expect the response XML to match:
      """xml
      <user id="1" active="#regex true|false">
        <name>Ada Lovelace</name>
        <email>#regex .+@example\.com</email>
        <roles><role>admin</role><role>editor</role></roles>
        <address>#ignore</address>
        <createdAt>#datetime</createdAt>
      </user>
      """
    And I expect the response XML to match in any order:
      """xml
      <user id="#string" active="true">
        <createdAt>#string</createdAt>
        <roles><role>editor</role><role>admin</role></roles>
        <address><country>UK</country><city>London</city><street>#string</street></address>
        <email>ada@example.com</email>
        <name>#string? _.startsWith('Ada')</name>
      </user>
      """
    And I expect the response XML to contain:
      """xml
      <user><address><city>London</city></address></user>
      """
    And I expect the response XML not to contain:
      """xml
      <user><roles><role>viewer</role></roles></user>
      """
    And I expect the response XML not to match:
      """xml
      <user id="1"><name>Ada Lovelace</name></user>
      """

  Scenario: Sending XML
    When I send a POST request to "/api/xml/echo" with the XML:
      """xml
      <order><sku>F-1</sku><quantity>2</quantity></order>
      """
    Then I expect the response status to equal 200
    And I expect the response XPath "/echo/@contentType" to equal "application/xml"
    And I expect the response XPath "/echo/order/quantity" to equal "2"
