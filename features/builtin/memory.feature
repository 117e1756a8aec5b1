@builtin
Feature: Built-in steps: memory
  What a step remembers as "name" later steps use as $name (or ${name}) in
  their arguments, tables and doc strings; $name.field reads into a value;
  $$ is a dollar sign. A name the scenario has not remembered comes from the
  Examples row, [steps.values], the environment ([scripting] allowEnv) or
  the computed values $uuid, $timestamp, $now and $today.

  Scenario: Remembering what the page shows
    Given I open "/elements.html"
    When I remember the text of "h1" as "heading"
    And I remember the value of "#code" as "code"
    And I remember the attribute "aria-expanded" of "#toggle-details" as "expanded"
    And I remember the count of "#items li" as "count"
    And I remember the texts of "#items li" as "items"
    And I remember the URL as "url"
    And I remember the title as "title"
    Then I expect "$heading" to equal "Elements"
    And I expect "$code" to start with "ABC"
    And I expect "$expanded" to equal "false"
    And I expect "$count" to equal 3
    And I expect "$items" to contain "Walk the dog"
    And I expect "$items.0" to equal "Buy milk"
    And I expect "$items" to have length 3
    And I expect "$url" to end with "/elements.html"
    And I expect "$title" to match "^Elements"
    When I fill "#focus-me" with "$code-$count"
    Then I expect the value of "#focus-me" to equal "ABC-123-3"
    And I expect the text of "h1" to equal "$heading"

  Scenario: Values written in the feature, in the configuration, in the environment, computed
    When I remember "demo" as "user"
    And I remember the values:
      | greeting | Hello, $user |
      | price    | $$5          |
    And I remember the following as "todo":
      """
      {"title": "Buy milk", "tags": ["home", "$user"]}
      """
    And I remember "$uuid" as "id"
    Then I expect "$greeting" to equal "Hello, demo"
    And I expect "$price" to equal "$$5"
    And I expect "$todo.title" to equal "Buy milk"
    And I expect "$todo.tags.1" to equal "demo"
    And I expect "$id" to match "^[0-9a-f-]{36}$"
    And I expect "$id" not to equal "$uuid"
    And I expect "$today" to match "^\d{4}-\d{2}-\d{2}$"
    And I expect "$timestamp" to be greater than 1700000000000
    And I expect "$now" to contain "T"
    And I expect "$siteName" to equal "ferridriver demo"
    And I expect "${siteName}!" to equal "ferridriver demo!"
    And I expect "$PATH" to contain "/"
    And I log "the user is $user"

  Scenario Outline: The Examples row of an outline
    When I remember "<name>" as "copy"
    Then I expect "$name" to equal "<name>"
    And I expect "$copy" to equal "$name"
    And I expect "$count" to be greater than 0

    Examples:
      | name | count |
      | Ada  | 1     |
      | Alan | 2     |
