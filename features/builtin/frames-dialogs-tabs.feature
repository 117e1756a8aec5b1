@builtin
Feature: Built-in steps: frames, dialogs and tabs

  Scenario: Switching into frames and out again
    Given I open "/frames.html"
    When I switch to the frame "Inner"
    Then I expect the text of "#where" to equal "Inner page"
    When I click "#press-inside"
    Then I expect the text of "#inside-state" to equal "Pressed inside"
    When I switch to the frame "#deep"
    Then I expect the text of "#where" to equal "Deep inside"
    And I expect the page to contain the text "Deep inside"
    When I switch to the parent frame
    Then I expect the text of "#where" to equal "Inner page"
    When I switch to the frame 'iframe[title="Deep frame"]'
    And I switch to the main frame
    Then I expect the text of "#where" to equal "Outer page"

  Scenario: Answering dialogs ahead
    Given I open "/dialogs.html"
    When I accept the next dialog
    And I click "#confirm"
    Then I expect the text of "role=status" to equal "Confirmed"
    And I expect the message of the last dialog to equal "Delete everything?"
    And I expect the type of the last dialog to equal "confirm"
    And I expect the message of the last dialog not to contain "name"
    And I expect the number of dialogs not to equal 0
    When I dismiss the next dialog
    And I click "#confirm"
    Then I expect the text of "role=status" to equal "Cancelled"
    When I accept the next prompt with "Ada"
    And I click "#prompt"
    Then I expect the text of "role=status" to equal "Hello, Ada!"
    And I expect the type of the last dialog not to equal "alert"
    When I click "#alert"
    Then I expect the text of "role=status" to equal "Alert closed"
    And I expect the message of the last dialog to contain "Hello from"
    When I accept every dialog
    And I click "#confirm"
    Then I expect the text of "role=status" to equal "Confirmed"
    When I dismiss every dialog
    And I click "#prompt"
    Then I expect the text of "role=status" to equal "Prompt cancelled"
    And I expect the number of dialogs to equal 6

  Scenario: Tabs
    Given I open "/elements.html"
    When I click "text=Open the todo list in a new tab"
    And I switch to the new tab
    Then I expect the URL path to equal "/todo.html"
    And I expect the number of tabs to equal 2
    And I expect the number of tabs not to equal 1
    When I switch to tab 1
    Then I expect the URL path to equal "/elements.html"
    When I open "/forms.html" in a new tab
    Then I expect the number of tabs to equal 3
    And I expect the title to contain "Order form"
    When I close the current tab
    Then I expect the number of tabs to equal 2
    When I open a new tab
    Then I expect the URL to equal "about:blank"
    And I expect the number of tabs to be greater than 2
    When I switch to tab 2
    Then I expect the title to contain "Todo"
